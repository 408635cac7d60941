package agent

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/internal/termsafe"
)

// RemoveInstalled removes hooksup's installed hooks from the JSON settings file at path (any
// agent's that holds them in "hooks", by event), and says so on stdout.
func RemoveInstalled(path string, stdout io.Writer) error {
	changed, err := hooks.EditSettingsFile(path, hooks.MergeUninstall)
	if err != nil {
		return err
	}
	if changed {
		// A file that holds nothing once hooksup's hooks are gone is one install made: removed
		// (not a link into the person's dotfiles, which stays theirs).
		var rest map[string]json.RawMessage
		fi, lerr := os.Lstat(path)
		if b, err := os.ReadFile(path); lerr == nil && fi.Mode().IsRegular() && err == nil && json.Unmarshal(b, &rest) == nil && len(rest) == 0 {
			if err := os.Remove(path); err == nil {
				fmt.Fprintf(stdout, "removed hooksup's hooks from %s, and the file, which held nothing else\n", termsafe.String(path))
				return nil
			}
		}
		fmt.Fprintf(stdout, "removed hooksup's hooks from %s\n", termsafe.String(path))
	} else {
		fmt.Fprintf(stdout, "hooksup's hooks were not in %s\n", termsafe.String(path))
	}
	return nil
}

package claude

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/hooksup/hooksup/agent"
	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/internal/termsafe"
)

// Doctor reports the claude hooksup claude would run, and the hooks of Claude Code's settings
// by source: disableAllHooks, and Stop hooks that may block claude forever.
func (Agent) Doctor(ctx context.Context, d agent.Check) {
	var version hooks.Version
	if path, err := exec.LookPath(d.Bin); err != nil {
		d.Bad("%s not found on PATH: install Claude Code or set --claude-bin / HOOKSUP_CLAUDE_BIN", d.Bin)
	} else {
		v, err := Version(ctx, path, os.Environ(), 10*time.Second)
		version = v
		switch {
		case err != nil:
			d.Bad("%s: cannot tell its version (%v): hooksup claude injects every hook and says so if none arrives", path, err)
		case !Supported(v):
			d.Bad("%v", &ErrTooOld{Version: v, Path: path})
		default:
			d.OK("%s: Claude Code %s (hooksup supports %s and newer; tested with %s)", path, v, MinVersion, TestedVersion)
		}
	}

	fmt.Fprintln(d.Out, "hooks in Claude Code's settings")
	rep := InspectSettings(SettingsSources(d.ProjectDir, d.Home))
	for _, p := range rep.Problems {
		d.Bad("%s", p)
	}
	for _, dis := range rep.DisableAllHooks {
		d.Bad("disableAllHooks is true in %s: plain claude runs no hooks (hooksup claude turns them back on for its session)", dis)
	}
	if len(rep.Hooks) == 0 {
		d.OK("none (hooksup claude injects its own for its session)")
	}
	for _, h := range rep.Hooks {
		who := "other"
		if h.Ours {
			who = "hooksup install"
		}
		line := fmt.Sprintf("%-8s %-13s %s  [%s]", termsafe.String(h.Source), termsafe.String(h.Event), termsafe.String(h.Command), who)
		if h.IgnoresActive {
			d.Bad("%s\n      this Stop hook never mentions stop_hook_active: it may block claude again and again", line)
		} else {
			d.OK("%s", line)
		}
	}
	fmt.Fprintf(d.Out, "  · hooksup claude adds its own hooks through --settings for its session: %s\n", strings.Join(EventsFor(version, false), ", "))
}

package supervisor

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/hooksup/hooksup/internal/runtimedir"
)

// A socket path too long for sun_path is refused up front with a message that says what to do,
// not with bind's "invalid argument".
func TestListenRefusesALongPathClearly(t *testing.T) {
	dir := shortDir(t)
	limit := runtimedir.SunPathLen(runtime.GOOS)
	path := filepath.Join(dir, strings.Repeat("s", limit-len(dir))+".sock")
	_, err := Listen(path, "tok", nil)
	want := fmt.Sprintf("socket path %s is %d bytes, longer than the %d a unix socket path may have here: set XDG_RUNTIME_DIR or TMPDIR to a shorter directory", path, len(path), limit-1)
	if err == nil || err.Error() != want {
		t.Fatalf("err = %v\nwant %s", err, want)
	}
}

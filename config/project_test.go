package config

import (
	"os"
	"path/filepath"
	"testing"
)

func TestFindProjectWalksUpToTheRepositoryRoot(t *testing.T) {
	root := t.TempDir()
	repo := filepath.Join(root, "repo")
	deep := filepath.Join(repo, "a", "b")
	os.MkdirAll(deep, 0o700)
	os.Mkdir(filepath.Join(repo, ".git"), 0o700)
	os.WriteFile(filepath.Join(root, ".hooksup.toml"), nil, 0o600) // above the repository: never
	if dir, found := FindProject(deep); found || dir != deep {
		t.Errorf("no file in the repository: %q %v, want %q false", dir, found, deep)
	}
	os.WriteFile(filepath.Join(repo, ".hooksup.local.toml"), nil, 0o600)
	if dir, found := FindProject(deep); !found || dir != repo {
		t.Errorf("a local file at the root: %q %v", dir, found)
	}
	os.WriteFile(filepath.Join(repo, "a", ".hooksup.toml"), nil, 0o600)
	if dir, found := FindProject(deep); !found || dir != filepath.Join(repo, "a") {
		t.Errorf("the nearest file: %q %v", dir, found)
	}
	// A directory named .hooksup.toml is the project's file, which Load then refuses by name,
	// rather than one passed over for the file further up.
	os.Mkdir(filepath.Join(deep, ".hooksup.toml"), 0o700)
	if dir, found := FindProject(deep); !found || dir != deep {
		t.Errorf("a directory named .hooksup.toml was passed over: %q %v", dir, found)
	}
	if r, ok := RepoRoot(deep); !ok || r != repo {
		t.Errorf("RepoRoot = %q %v", r, ok)
	}
}

// Every path round-trips through the trust store, and none adds a line of its own.
func TestTrustStoreRoundTripsAnyPath(t *testing.T) {
	store := TrustStore{Path: filepath.Join(t.TempDir(), "trusted")}
	victim, vcontent := "/victim/.hooksup.toml", []byte("v")
	paths := []string{
		"/plain/.hooksup.toml",
		"/a\n" + Digest(vcontent) + " " + victim,
		"/tab\there/\"quoted\"/.hooksup.toml",
		"\"/starts with a quote",
		"/bad\xffbyte/\x1b[2K\r/.hooksup.toml",
	}
	for i, p := range paths {
		if err := store.TrustContent(p, []byte{byte(i)}); err != nil {
			t.Fatal(err)
		}
	}
	for i, p := range paths {
		if !store.Trusted(p, []byte{byte(i)}) {
			t.Errorf("%q is not trusted after TrustContent", p)
		}
	}
	if store.Trusted(victim, vcontent) {
		t.Error("a newline in a trusted path trusted another file")
	}
	// A store written before paths were quoted still reads.
	old := TrustStore{Path: filepath.Join(t.TempDir(), "trusted")}
	os.WriteFile(old.Path, []byte(Digest([]byte("x"))+" /old/path with spaces/.hooksup.toml\ngarbage line\n"), 0o600)
	if !old.Trusted("/old/path with spaces/.hooksup.toml", []byte("x")) {
		t.Error("an older store's line no longer reads")
	}
}

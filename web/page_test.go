package web

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io/fs"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"
)

// The page is its embedded files, served to anyone (it holds no session's data), each with the
// security headers and its own type; it loads nothing from another origin and runs no inline
// script, which the CSP would refuse anyway.
func TestPageIsSelfContained(t *testing.T) {
	ts, _ := newTestServer(t)
	resp, body := do(t, ts, req{method: "GET", path: "/"})
	if resp.StatusCode != 200 || !strings.Contains(resp.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("GET /: %d %v", resp.StatusCode, resp.Header)
	}
	for _, m := range regexp.MustCompile(`(?is)<script([^>]*)>(.*?)</script>`).FindAllStringSubmatch(body, -1) {
		if !strings.Contains(m[1], `src="/`) || strings.TrimSpace(m[2]) != "" {
			t.Errorf("an inline script: %s", m[0])
		}
	}
	if regexp.MustCompile(`(?i)\son[a-z]+=`).MatchString(body) || strings.Contains(body, "style=") {
		t.Errorf("inline handlers or styles in the page:\n%s", body)
	}
	names, _ := fs.Glob(static, "static/*")
	if len(names) < 3 {
		t.Fatalf("embedded: %v", names)
	}
	types := map[string]string{".js": "text/javascript", ".css": "text/css", ".html": "text/html", ".webmanifest": "application/manifest+json", ".svg": "image/svg+xml"}
	for _, n := range names {
		b, _ := fs.ReadFile(static, n)
		b = []byte(strings.ReplaceAll(string(b), `xmlns="http://www.w3.org/2000/svg"`, "")) // a name, not a load
		if u := regexp.MustCompile(`(?i)(https?:)?//[a-z0-9.-]+\.[a-z]{2,}`).Find(b); u != nil {
			t.Errorf("%s loads from another origin: %s", n, u)
		}
		path := "/" + strings.TrimPrefix(n, "static/")
		if path == "/index.html" {
			continue
		}
		resp, _ := do(t, ts, req{method: "GET", path: path})
		ext := path[strings.LastIndex(path, "."):]
		if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), types[ext]) ||
			resp.Header.Get("Content-Security-Policy") == "" {
			t.Errorf("GET %s: %d %v", path, resp.StatusCode, resp.Header)
		}
	}
}

// What comes from a session is put in the page as text: the script never parses a string as
// markup (innerHTML and its kin).
func TestPageWritesTextOnly(t *testing.T) {
	js, err := fs.ReadFile(static, "static/app.js")
	if err != nil {
		t.Fatal(err)
	}
	for _, sink := range []string{"innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function", "setAttribute(\"on", "javascript:"} {
		if strings.Contains(string(js), sink) {
			t.Errorf("app.js uses %s", sink)
		}
	}
}

// TestFigurePageWeight prints what the page costs to load: each embedded file, and the whole
// raw and gzipped. It asserts nothing; run it with
// HOOKSUP_FIGURES=1 go test -run TestFigurePageWeight -v ./web/
func TestFigurePageWeight(t *testing.T) {
	if os.Getenv("HOOKSUP_FIGURES") == "" {
		t.Skip("prints figures: set HOOKSUP_FIGURES=1")
	}
	names, _ := fs.Glob(static, "static/*")
	var raw, zipped int
	for _, n := range names {
		b, _ := fs.ReadFile(static, n)
		var z bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
		zw.Write(b)
		zw.Close()
		raw += len(b)
		zipped += z.Len()
		t.Logf("%-22s %6d bytes, %5d gzipped", strings.TrimPrefix(n, "static/"), len(b), z.Len())
	}
	t.Logf("%-22s %6d bytes, %5d gzipped (served uncompressed)", "the page", raw, zipped)
}

// The page is installable: its manifest names a start URL and icons that are served.
func TestManifest(t *testing.T) {
	b, err := fs.ReadFile(static, "static/manifest.webmanifest")
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Name     string
		StartURL string `json:"start_url"`
		Display  string
		Icons    []struct{ Src string }
	}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if m.Name == "" || m.StartURL != "/" || m.Display != "standalone" || len(m.Icons) == 0 {
		t.Fatalf("manifest %+v", m)
	}
	page, _ := fs.ReadFile(static, "static/index.html")
	if !strings.Contains(string(page), `<link rel="manifest" href="/manifest.webmanifest">`) {
		t.Fatal("the page does not link its manifest")
	}
	for _, ic := range m.Icons {
		if _, err := fs.Stat(static, "static"+ic.Src); err != nil {
			t.Errorf("icon %s: %v", ic.Src, err)
		}
	}
}

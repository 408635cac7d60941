package project

import (
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
)

// workflow is a GitHub Actions workflow of one job per script.
func workflow(jobs ...string) *fstest.MapFile {
	s := "name: CI\non: [push]\njobs:\n"
	for i, run := range jobs {
		s += "  job" + string(rune('a'+i)) + ":\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: |\n"
		for _, l := range strings.Split(run, "\n") {
			s += "          " + l + "\n"
		}
	}
	return &fstest.MapFile{Data: []byte(s)}
}

// TestDetectOneCheckPerSuite: a suite the CI runs twice, with other verbosity flags (pytest
// and pytest -v in two jobs; python -m pytest -q), is one check: the quietest, saying above it
// which others it stands for and why.
func TestDetectOneCheckPerSuite(t *testing.T) {
	for _, tc := range []struct {
		name    string
		jobs    []string
		want    []string
		comment string
	}{
		{"pytest -v, then pytest", []string{"pytest -v", "pytest"}, []string{"test | pytest"},
			"# from .github/workflows/ci.yml, job \"jobb\", step \"pytest\"\n# one check for this suite: the CI also runs `pytest -v` (.github/workflows/ci.yml, job \"joba\", step \"pytest -v\"), the same tests with more output; this one shows a failure all the same\n[[stop.checks]]\nname = \"test\"\ncommand = \"pytest\""},
		{"pytest, then pytest --verbose", []string{"pytest tests", "pytest --verbose tests"}, []string{"test | pytest tests"},
			"# one check for this suite: the CI also runs `pytest --verbose tests`"},
		{"python -m pytest -q beside pytest", []string{"pytest", "python -m pytest -q"}, []string{"test | python -m pytest -q"},
			"# one check for this suite: the CI also runs `pytest`"},
		{"another selection", []string{"pytest tests/unit", "pytest -v tests/integration"},
			[]string{"test | pytest tests/unit", "test (2) | pytest -v tests/integration"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := Detect(fstest.MapFS{".github/workflows/ci.yml": workflow(tc.jobs...)})
			if got := checkLines(d.Checks()); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("checks:\n  got  %q\n  want %q\n%s", got, tc.want, d.Summary())
			}
			if f := InitFile(d); !strings.Contains(f, tc.comment) || tc.comment == "" && strings.Contains(f, "one check for this suite") {
				t.Errorf("the file lacks %q:\n%s", tc.comment, f)
			}
		})
	}
}

// TestDetectCIPythonLinters: the Python linters, formatters' checks and type checkers a CI
// runs are proposed as it runs them, with their role; a form that changes files is left out,
// saying so.
func TestDetectCIPythonLinters(t *testing.T) {
	d := Detect(fstest.MapFS{
		"pyproject.toml": {Data: []byte("[project]\nname = \"app\"\n")},
		".github/workflows/ci.yml": workflow("flake8 .", "black . --check", "black src", "python -m mypy app", "pyright",
			"cog --check README.md", "cog -r README.md", "ty check", "isort --check-only .", "python3 -m flake8 --max-line-length 100 app"),
	})
	want := []string{"lint | flake8 .", "lint (2) | cog --check README.md", "lint (3) | python3 -m flake8 --max-line-length 100 app",
		"format | black . --check", "format (2) | isort --check-only .",
		"typecheck | python -m mypy app", "typecheck (2) | pyright", "typecheck (3) | ty check"}
	if got := checkLines(d.Checks()); !reflect.DeepEqual(got, want) {
		t.Errorf("checks:\n  got  %q\n  want %q\n%s", got, want, d.Summary())
	}
	for _, s := range []string{"`black src` changes files", "`cog -r README.md` changes files"} {
		if !strings.Contains(d.Summary(), s) {
			t.Errorf("summary lacks %q:\n%s", s, d.Summary())
		}
	}
}

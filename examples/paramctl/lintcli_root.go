package main

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/paramkit/paramkit/lint"
)

// lintRoot is the folder every output of paramctl lint (text, -o json,
// -o sarif, and so the baseline) names files from: the root of the
// repository the arguments are in (the nearest folder at or above their
// common folder that holds .git, a folder or a worktree's file), else
// their common folder. So a file has one name in all four outputs, and
// the same name whatever the working directory and however the arguments
// reach it (chart, ./chart, ../repo/chart, /abs/chart): a baseline
// written in one directory works from any other, and code scanning
// finds the file from the repository root.
type lintRoot struct {
	dir string // absolute, cleaned
}

// newLintRoot finds the root of the arguments (files and folders; "-",
// standard input, is left out). With no argument on disk it is the
// working directory.
func newLintRoot(args []string) lintRoot {
	common := ""
	for _, a := range args {
		if a == "-" {
			continue
		}
		abs, err := filepath.Abs(a)
		if err != nil {
			continue
		}
		if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
			abs = filepath.Dir(abs)
		}
		if common == "" {
			common = abs
			continue
		}
		common = commonDir(common, abs)
	}
	if common == "" {
		wd, err := os.Getwd()
		if err != nil {
			return lintRoot{dir: "."}
		}
		common = wd
	}
	for d := common; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return lintRoot{dir: d}
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	return lintRoot{dir: common}
}

// commonDir is the longest folder path both absolute paths are in.
func commonDir(a, b string) string {
	for {
		if a == b || strings.HasPrefix(b, strings.TrimSuffix(a, string(filepath.Separator))+string(filepath.Separator)) {
			return a
		}
		up := filepath.Dir(a)
		if up == a {
			return a
		}
		a = up
	}
}

// name names a path (a file given, or a folder's file joined to it) from
// the root, with forward slashes; "-" (standard input) stays "-", and a
// path the root cannot name stays as given.
func (r lintRoot) name(p string) string {
	if p == "-" || p == "" {
		return p
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return filepath.ToSlash(p)
	}
	rel, err := filepath.Rel(r.dir, abs)
	if err != nil {
		return filepath.ToSlash(abs)
	}
	return filepath.ToSlash(rel)
}

// report names the argument of a report and the files of its findings
// from the root: a finding's File is relative to the folder given (a
// chart's or a package's) or "" for the file given itself.
func (r lintRoot) report(arg string, folder bool, fs []lint.Finding) lintReport {
	rep := lintReport{File: r.name(arg), folder: folder}
	for _, f := range fs {
		switch {
		case f.File == "" || !folder:
			f.File = rep.File
		case f.File == "-":
		default:
			f.File = r.name(filepath.Join(arg, filepath.FromSlash(f.File)))
		}
		rep.Findings = append(rep.Findings, f)
	}
	return rep
}

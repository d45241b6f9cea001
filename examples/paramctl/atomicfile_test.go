package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// entries lists a directory's names (temporary files included).
func entries(t *testing.T, dir string) []string {
	t.Helper()
	des, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, de := range des {
		names = append(names, de.Name())
	}
	return names
}

// TestAtomicWriteThroughSymlinkChain: a mounted ConfigMap file is a chain
// of links (file -> ..data/file, ..data -> ..2024_01/): the file at its
// end gets the content, every link stays a link.
func TestAtomicWriteThroughSymlinkChain(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links")
	}
	dir := t.TempDir()
	real := filepath.Join(dir, "..2024_01")
	require.NoError(t, os.Mkdir(real, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(real, "README.md"), []byte("old\n"), 0o640))
	require.NoError(t, os.Symlink("..2024_01", filepath.Join(dir, "..data")))
	link := filepath.Join(dir, "README.md")
	require.NoError(t, os.Symlink("..data/README.md", link))

	require.NoError(t, writeFileAtomic(link, []byte("new\n")))

	fi, err := os.Lstat(link)
	require.NoError(t, err)
	assert.NotZero(t, fi.Mode()&os.ModeSymlink, "the link is kept")
	dest, err := os.Readlink(link)
	require.NoError(t, err)
	assert.Equal(t, "..data/README.md", dest)
	fi, err = os.Lstat(filepath.Join(dir, "..data"))
	require.NoError(t, err)
	assert.NotZero(t, fi.Mode()&os.ModeSymlink)
	got, err := os.ReadFile(filepath.Join(real, "README.md"))
	require.NoError(t, err)
	assert.Equal(t, "new\n", string(got), "the target has the new content")
	fi, err = os.Stat(filepath.Join(real, "README.md"))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o640), fi.Mode().Perm(), "the target keeps its mode")
	assert.ElementsMatch(t, []string{"README.md"}, entries(t, real), "no temporary file left")

	// An absolute link, and a link to a file not there yet.
	abs := filepath.Join(dir, "abs.md")
	require.NoError(t, os.Symlink(filepath.Join(real, "README.md"), abs))
	require.NoError(t, writeFileAtomic(abs, []byte("abs\n")))
	got, err = os.ReadFile(filepath.Join(real, "README.md"))
	require.NoError(t, err)
	assert.Equal(t, "abs\n", string(got))
	dangling := filepath.Join(dir, "new.md")
	require.NoError(t, os.Symlink("..2024_01/new.md", dangling))
	require.NoError(t, writeFileAtomic(dangling, []byte("x\n")))
	got, err = os.ReadFile(filepath.Join(real, "new.md"))
	require.NoError(t, err)
	assert.Equal(t, "x\n", string(got))

	loop := filepath.Join(dir, "loop")
	require.NoError(t, os.Symlink("loop", loop))
	assert.ErrorContains(t, writeFileAtomic(loop, []byte("x")), "too many levels of symbolic links")
}

func TestAtomicWriteKeepsMode(t *testing.T) {
	dir := t.TempDir()
	for _, mode := range []os.FileMode{0o600, 0o640, 0o755} {
		p := filepath.Join(dir, mode.String())
		require.NoError(t, os.WriteFile(p, []byte("old"), mode))
		require.NoError(t, os.Chmod(p, mode)) // whatever the umask
		require.NoError(t, writeFileAtomic(p, []byte("new")))
		fi, err := os.Stat(p)
		require.NoError(t, err)
		if runtime.GOOS != "windows" {
			assert.Equal(t, mode, fi.Mode().Perm())
		}
	}
	p := filepath.Join(dir, "fresh")
	require.NoError(t, writeFileAtomic(p, []byte("new")))
	fi, err := os.Stat(p)
	require.NoError(t, err)
	if runtime.GOOS != "windows" {
		assert.Equal(t, os.FileMode(0o644), fi.Mode().Perm(), "a new file is 0644")
	}
}

// TestAtomicWriteFailureLeavesNothing: a write that fails at any step
// (sync, rename) leaves the file as it was and removes its temporary
// file; a directory that refuses new files fails before touching it.
func TestAtomicWriteFailureLeavesNothing(t *testing.T) {
	boom := errors.New("injected failure")
	for name, inject := range map[string]func() func(){
		"sync": func() func() {
			old := atomicSync
			atomicSync = func(*os.File) error { return boom }
			return func() { atomicSync = old }
		},
		"rename": func() func() {
			old := atomicRename
			atomicRename = func(string, string) error { return boom }
			return func() { atomicRename = old }
		},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "out.yaml")
			require.NoError(t, os.WriteFile(p, []byte("old: content\n"), 0o644))
			restore := inject()
			err := writeFileAtomic(p, []byte("new: content\n"))
			restore()
			require.ErrorIs(t, err, boom)
			got, err := os.ReadFile(p)
			require.NoError(t, err)
			assert.Equal(t, "old: content\n", string(got), "not half written, not replaced")
			assert.Equal(t, []string{"out.yaml"}, entries(t, dir), "the temporary file is removed")
		})
	}

	t.Run("read-only directory", func(t *testing.T) {
		if runtime.GOOS == "windows" || os.Geteuid() == 0 {
			t.Skip("permissions do not bind here")
		}
		dir := t.TempDir()
		p := filepath.Join(dir, "out.yaml")
		require.NoError(t, os.WriteFile(p, []byte("old\n"), 0o644))
		require.NoError(t, os.Chmod(dir, 0o555))
		t.Cleanup(func() { _ = os.Chmod(dir, 0o755) })
		require.Error(t, writeFileAtomic(p, []byte("new\n")))
		got, err := os.ReadFile(p)
		require.NoError(t, err)
		assert.Equal(t, "old\n", string(got))
		assert.Equal(t, []string{"out.yaml"}, entries(t, dir))
	})

	t.Run("spool discarded", func(t *testing.T) {
		dir := t.TempDir()
		p := filepath.Join(dir, "out.yaml")
		sp, err := newSpool(p)
		require.NoError(t, err)
		_, err = sp.Write([]byte("half"))
		require.NoError(t, err)
		sp.discard()
		assert.Empty(t, entries(t, dir), "a run that fails leaves neither output nor temporary file")
	})
}

// TestListWriteThroughSymlink: list --write on a link (a mounted
// ConfigMap file) updates the file the link leads to and keeps the link;
// so does migrate --output.
func TestListWriteThroughSymlink(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links")
	}
	dir := t.TempDir()
	real := filepath.Join(dir, "real.md")
	require.NoError(t, os.WriteFile(real, []byte("# Docs\n<!-- DOCS_START -->\n<!-- DOCS_END -->\n"), 0o600))
	link := filepath.Join(dir, "README.md")
	require.NoError(t, os.Symlink("real.md", link))
	schemaFile := filepath.Join(dir, "s.yaml")
	require.NoError(t, os.WriteFile(schemaFile, []byte("properties: {a: {type: string, description: the a}}\n"), 0o644))

	code, _, errs := paramctl(t, "", "list", "--schema", schemaFile, "--write", link)
	require.Equal(t, exitOK, code, errs)
	fi, err := os.Lstat(link)
	require.NoError(t, err)
	assert.NotZero(t, fi.Mode()&os.ModeSymlink, "the link is kept")
	got, err := os.ReadFile(real)
	require.NoError(t, err)
	assert.Contains(t, string(got), "the a")
	fi, err = os.Stat(real)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm())

	outReal := filepath.Join(dir, "out-real.yaml")
	require.NoError(t, os.WriteFile(outReal, []byte("old\n"), 0o600))
	outLink := filepath.Join(dir, "out.yaml")
	require.NoError(t, os.Symlink("out-real.yaml", outLink))
	code, _, errs = paramctl(t, "a: x\n", "migrate", "--schema", schemaFile, "--output", outLink, "-")
	require.Equal(t, exitOK, code, errs)
	got, err = os.ReadFile(outReal)
	require.NoError(t, err)
	assert.Equal(t, "a: x\n", string(got))
	fi, err = os.Lstat(outLink)
	require.NoError(t, err)
	assert.NotZero(t, fi.Mode()&os.ModeSymlink)
	assert.ElementsMatch(t, []string{"real.md", "README.md", "s.yaml", "out-real.yaml", "out.yaml"}, entries(t, dir))
}

// TestAtomicWriteAsAnEditor: a read-only file is refused unless forced;
// the owner and group are kept; a hard link broken is said.
func TestAtomicWriteAsAnEditor(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Unix permissions, owners and links")
	}
	t.Run("read-only refused", func(t *testing.T) {
		dir := t.TempDir()
		p := filepath.Join(dir, "schema.yaml")
		require.NoError(t, os.WriteFile(p, []byte("old\n"), 0o444))
		require.NoError(t, os.Chmod(p, 0o444))
		err := writeFileAtomic(p, []byte("new\n"))
		require.Error(t, err)
		assert.Equal(t, p+" is read-only (mode 0444); not replaced (--force replaces it)", err.Error())
		got, _ := os.ReadFile(p)
		assert.Equal(t, "old\n", string(got))
		assert.Equal(t, []string{"schema.yaml"}, entries(t, dir), "no temporary file")

		require.NoError(t, writeFileAtomic(p, []byte("new\n"), forceWrite(true)))
		got, _ = os.ReadFile(p)
		assert.Equal(t, "new\n", string(got))
		fi, err := os.Stat(p)
		require.NoError(t, err)
		assert.Equal(t, os.FileMode(0o444), fi.Mode().Perm(), "forced, it stays read-only")
	})
	t.Run("owner kept", func(t *testing.T) {
		if os.Geteuid() != 0 {
			t.Skip("giving a file to another user needs root")
		}
		dir := t.TempDir()
		p := filepath.Join(dir, "values.yaml")
		require.NoError(t, os.WriteFile(p, []byte("old\n"), 0o640))
		require.NoError(t, os.Chown(p, 4321, 4322))
		require.NoError(t, writeFileAtomic(p, []byte("new\n")))
		fi, err := os.Stat(p)
		require.NoError(t, err)
		uid, gid, ok := fileOwner(fi)
		require.True(t, ok)
		assert.Equal(t, []int{4321, 4322}, []int{uid, gid})
		assert.Equal(t, os.FileMode(0o640), fi.Mode().Perm())
	})
	t.Run("hard link said", func(t *testing.T) {
		dir := t.TempDir()
		p := filepath.Join(dir, "README.md")
		require.NoError(t, os.WriteFile(p, []byte("old\n"), 0o644))
		require.NoError(t, os.Link(p, filepath.Join(dir, "copy.md")))
		var notes bytes.Buffer
		require.NoError(t, writeFileAtomic(p, []byte("new\n"), writeNotes(&notes)))
		assert.Equal(t, p+": has 2 hard links; replacing it breaks them (the other names keep the old content)\n", notes.String())
		got, _ := os.ReadFile(filepath.Join(dir, "copy.md"))
		assert.Equal(t, "old\n", string(got))

		notes.Reset()
		require.NoError(t, writeFileAtomic(p, []byte("newer\n"), writeNotes(&notes)))
		assert.Empty(t, notes.String(), "one link: nothing to say")
	})
}

// TestAtomicWriteRemovesStaleTemps: a temporary file a killed run left
// (older than this run, its process gone) is removed by the next write
// beside it; one of a running process, or newer than this run, is not;
// nor is anything not named as the writer names its files.
func TestAtomicWriteRemovesStaleTemps(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("processes are not looked up here")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	require.NoError(t, cmd.Run())
	dead := cmd.Process.Pid // gone: waited for
	dir := t.TempDir()
	p := filepath.Join(dir, "schema.yaml")
	require.NoError(t, os.WriteFile(p, []byte("old\n"), 0o644))
	old := runStart.Add(-time.Hour)
	make := func(name string, mtime time.Time) string {
		f := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(f, []byte("half"), 0o600))
		require.NoError(t, os.Chtimes(f, mtime, mtime))
		return f
	}
	stale := make(fmt.Sprintf(".schema.yaml.paramctl-%d-123.tmp", dead), old)
	running := make(".schema.yaml.paramctl-1-456.tmp", old) // pid 1 runs
	fresh := make(fmt.Sprintf(".schema.yaml.paramctl-%d-789.tmp", dead), time.Now().Add(time.Hour))
	other := make(fmt.Sprintf(".other.yaml.paramctl-%d-1.tmp", dead), old)
	mine := make(".schema.yaml.tmp-999", old)

	var notes bytes.Buffer
	require.NoError(t, writeFileAtomic(p, []byte("new\n"), writeNotes(&notes)))
	assert.NoFileExists(t, stale)
	assert.Equal(t, stale+": removed, a temporary file an earlier run left\n", notes.String())
	for _, f := range []string{running, fresh, other, mine} {
		assert.FileExists(t, f)
	}
}

// TestWriteCommandsRefuseReadOnly: each command that writes a file
// refuses a read-only one (exit 2, the file unchanged) and replaces it
// with --force.
func TestWriteCommandsRefuseReadOnly(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Unix permissions")
	}
	schemaText := "type: object\nproperties:\n  a: {type: integer, default: 1}\n"
	for _, tc := range []struct {
		name string
		file string // the file written, read-only
		text string
		args func(dir, file string) []string
	}{
		{"list --write", "README.md", "# x\n<!-- DOCS_START -->\n<!-- DOCS_END -->\n", func(dir, file string) []string {
			return []string{"list", "--schema", filepath.Join(dir, "schema.yaml"), "-o", "markdown", "--write", file}
		}},
		{"add-param", "schema.yaml", schemaText, func(dir, file string) []string {
			return []string{"add-param", "--schema", file, "--path", "/b", "--type", "string"}
		}},
		{"migrate --output", "out.yaml", "old: 1\n", func(dir, file string) []string {
			in := filepath.Join(dir, "in.yaml")
			require.NoError(t, os.WriteFile(in, []byte("a: 2\n"), 0o644))
			return []string{"migrate", "--schema", filepath.Join(dir, "schema.yaml"), "--output", file, in}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			require.NoError(t, os.WriteFile(filepath.Join(dir, "schema.yaml"), []byte(schemaText), 0o644))
			file := filepath.Join(dir, tc.file)
			require.NoError(t, os.WriteFile(file, []byte(tc.text), 0o444))
			require.NoError(t, os.Chmod(file, 0o444))
			args := tc.args(dir, file)
			code, _, errs := paramctl(t, "", args...)
			assert.Equal(t, exitUsage, code, errs)
			assert.Contains(t, errs, file+" is read-only (mode 0444); not replaced (--force replaces it)")
			got, _ := os.ReadFile(file)
			assert.Equal(t, tc.text, string(got))

			code, _, errs = paramctl(t, "", append(args, "--force")...)
			assert.Equal(t, exitOK, code, errs)
			got, _ = os.ReadFile(file)
			assert.NotEqual(t, tc.text, string(got))
		})
	}
}

package fileread

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sparse makes a file of size bytes that takes no room on disk.
func sparse(t *testing.T, name string, size int64) {
	t.Helper()
	f, err := os.Create(name)
	require.NoError(t, err)
	require.NoError(t, f.Truncate(size))
	require.NoError(t, f.Close())
}

func TestReadFS(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "small.yaml"), []byte("a: 1\n"), 0o644))
	sparse(t, filepath.Join(dir, "big.yaml"), 1<<40) // 1 TiB: refused by its size, never read
	require.NoError(t, os.Symlink("/dev/zero", filepath.Join(dir, "zero.yaml")))
	outside := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(outside, "shadow"), []byte("root:x\n"), 0o600))
	require.NoError(t, os.Symlink(filepath.Join(outside, "shadow"), filepath.Join(dir, "shadow.yaml")))
	require.NoError(t, os.Symlink("small.yaml", filepath.Join(dir, "inside.yaml")))
	root, err := os.OpenRoot(dir)
	require.NoError(t, err)
	defer root.Close()

	for _, tc := range []struct {
		name    string
		fsys    fs.FS
		file    string
		limit   int64
		regular bool
		want    string
		check   func(t *testing.T, err error)
	}{
		{name: "small", fsys: root.FS(), file: "small.yaml", limit: 100, want: "a: 1\n"},
		{name: "exactly the limit", fsys: root.FS(), file: "small.yaml", limit: 5, want: "a: 1\n"},
		{name: "a link inside", fsys: root.FS(), file: "inside.yaml", limit: 100, want: "a: 1\n"},
		{name: "one byte over", fsys: root.FS(), file: "small.yaml", limit: 4, check: func(t *testing.T, err error) {
			var tl *TooLargeError
			require.ErrorAs(t, err, &tl)
			assert.Equal(t, "read small.yaml: larger than the limit of 4 bytes; refused", err.Error())
		}},
		{name: "huge sparse file", fsys: root.FS(), file: "big.yaml", limit: ChartFileLimit, check: func(t *testing.T, err error) {
			assert.EqualError(t, err, "read big.yaml: larger than the limit of 5 MiB; refused")
		}},
		{name: "dev zero through a link out of the folder", fsys: root.FS(), file: "zero.yaml", limit: Limit, check: func(t *testing.T, err error) {
			require.ErrorIs(t, err, ErrEscapes)
			assert.EqualError(t, err, "open zero.yaml: a symbolic link leads outside the folder; refused")
		}},
		{name: "a secret through a link out of the folder", fsys: root.FS(), file: "shadow.yaml", limit: Limit, check: func(t *testing.T, err error) {
			assert.ErrorIs(t, err, ErrEscapes)
			assert.NotContains(t, err.Error(), "root:x")
		}},
		{name: "dev zero, regular files only", fsys: os.DirFS(dir), file: "zero.yaml", limit: Limit, regular: true, check: func(t *testing.T, err error) {
			assert.EqualError(t, err, "read zero.yaml: not a regular file (a character device); refused")
		}},
		{name: "dev zero read up to the limit only", fsys: os.DirFS(dir), file: "zero.yaml", limit: 1 << 20, check: func(t *testing.T, err error) {
			assert.EqualError(t, err, "read zero.yaml: larger than the limit of 1 MiB; refused")
		}},
		{name: "missing", fsys: root.FS(), file: "nope.yaml", limit: 100, check: func(t *testing.T, err error) {
			assert.ErrorIs(t, err, fs.ErrNotExist)
			var pe *fs.PathError
			require.ErrorAs(t, err, &pe)
			assert.Equal(t, "nope.yaml", pe.Path)
			assert.Equal(t, 1, strings.Count(err.Error(), "nope.yaml"))
		}},
		{name: "a folder, regular files only", fsys: fstest.MapFS{"d/x": {}}, file: "d", limit: 100, regular: true, check: func(t *testing.T, err error) {
			assert.EqualError(t, err, "read d: not a regular file (a folder); refused")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data, err := ReadFS(tc.fsys, tc.file, tc.limit, tc.regular)
			if tc.check != nil {
				require.Error(t, err)
				assert.Nil(t, data)
				tc.check(t, err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, string(data))
		})
	}
}

func TestSize(t *testing.T) {
	for n, want := range map[int64]string{5 << 20: "5 MiB", 512 << 10: "512 KiB", 100: "100 bytes", 1<<20 + 1: "1048577 bytes"} {
		assert.Equal(t, want, Size(n))
	}
}

func TestTooLargeDocument(t *testing.T) {
	err := error(&TooLargeError{Limit: 1 << 10, Document: true})
	assert.EqualError(t, err, "holds a document larger than the limit of 1 KiB; refused")
	assert.False(t, errors.Is(err, fs.ErrNotExist))
}

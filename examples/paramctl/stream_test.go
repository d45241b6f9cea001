package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// kepStream writes n value documents of the KEP upgrade example, as
// v1beta1 parameters (old: YAML) or upgraded values (JSON), generated on
// the fly.
func kepStream(w io.Writer, n int, old bool) error {
	bw := &bytes.Buffer{}
	for i := 0; i < n; i++ {
		if old {
			fmt.Fprintf(bw, "---\nCLUSTER_NAME: cluster-%06d\nBACKUP_ENABLED: %t\nBACKUP_CREDENTIALS_USERNAME: user-%d\nBACKUP_CREDENTIALS_PASSWORD: secret-%d\n", i, i%2 == 0, i, i)
		} else {
			fmt.Fprintf(bw, "---\n{\"clusterName\": \"cluster-%06d\", \"backup\": {\"enabled\": %t, \"credentials\": {\"name\": \"user-%d\", \"password\": \"secret-%d\"}}}\n", i, i%2 == 0, i, i)
		}
		if bw.Len() > 32<<10 || i == n-1 {
			if _, err := w.Write(bw.Bytes()); err != nil {
				return err
			}
			bw.Reset()
		}
	}
	return nil
}

// kepInstances writes n v1beta1 Instances of the KEP example, generated
// on the fly.
func kepInstances(w io.Writer, n int) error {
	bw := &bytes.Buffer{}
	for i := 0; i < n; i++ {
		fmt.Fprintf(bw, "---\napiVersion: kudo.dev/v1beta1\nkind: Instance\nspec:\n  parameters:\n    CLUSTER_NAME: cluster-%06d\n    BACKUP_ENABLED: \"%t\"\n    BACKUP_CREDENTIALS_USERNAME: user-%d\n    BACKUP_CREDENTIALS_PASSWORD: secret-%d\n", i, i%2 == 0, i, i)
		if bw.Len() > 32<<10 || i == n-1 {
			if _, err := w.Write(bw.Bytes()); err != nil {
				return err
			}
			bw.Reset()
		}
	}
	return nil
}

// lineCounter counts lines and bytes written to it.
type lineCounter struct {
	mu           sync.Mutex
	lines, bytes int
	head         strings.Builder
}

func (c *lineCounter) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.lines += bytes.Count(p, []byte("\n"))
	c.bytes += len(p)
	if c.head.Len() < 400 {
		c.head.Write(p[:min(len(p), 400)])
	}
	return len(p), nil
}

// peakHeap runs f while sampling the heap in use and returns the highest
// sample.
func peakHeap(f func()) uint64 {
	runtime.GC()
	var peak atomic.Uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var ms runtime.MemStats
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > peak.Load() {
				peak.Store(ms.HeapInuse)
			}
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	f()
	close(done)
	wg.Wait()
	return peak.Load()
}

// TestStreamsInConstantMemory runs long KEP streams, generated on the fly
// through a pipe on standard input, through validate, migrate, unwrap and
// convert (of Instances), and
// fails when the heap in use grows towards the stream's size: holding the
// whole stream (its text alone is 24 to 26 MB of 200,000 documents, held
// twice when split) goes far beyond the bound.
func TestStreamsInConstantMemory(t *testing.T) {
	n, bound := 200_000, uint64(24<<20)
	if raceEnabled || testing.Short() {
		n = 5_000 // the counts only: too short to tell buffering apart
	}
	// unwrap and convert read each document through the general YAML
	// reader, several times slower: half the documents, still more text
	// than the bound allows (100,000 Instances are 21 MB).
	q := n / 2
	t.Setenv("TMPDIR", t.TempDir())
	// The window at the default collector setting (paramctl lets garbage
	// grow to 4x the live heap otherwise, streamGC).
	t.Setenv("GOGC", "100")
	out := filepath.Join(t.TempDir(), "out.yaml")
	tests := []struct {
		name  string
		old   bool
		args  []string
		lines int // lines of standard output
		check func(t *testing.T, stdout *lineCounter)
	}{
		{"validate", false, []string{"validate", "--schema", "demo/kep-upgraded-schema.yaml", "-"}, n, func(t *testing.T, c *lineCounter) {
			assert.True(t, strings.HasPrefix(c.head.String(), "doc 0: valid\ndoc 1: valid\n"), c.head.String())
		}},
		{"validate -o json", false, []string{"validate", "--schema", "demo/kep-upgraded-schema.yaml", "-o", "json", "-"}, 5*n + 2, nil},
		{"migrate", true, []string{"migrate", "--schema", "demo/kep-upgraded-schema.yaml", "-"}, 7*n - 1, func(t *testing.T, c *lineCounter) {
			assert.True(t, strings.HasPrefix(c.head.String(), "clusterName: cluster-000000\nbackup:\n  enabled: true\n"), c.head.String())
		}},
		{"migrate --dry-run -o json", true, []string{"migrate", "--schema", "demo/kep-upgraded-schema.yaml", "--dry-run", "-o", "json", "-"}, n, nil},
		{"unwrap", true, []string{"unwrap", "--schema", "demo/kep-operatorversion-v1beta1.yaml", "-"}, 5*q - 1, func(t *testing.T, c *lineCounter) {
			assert.True(t, strings.HasPrefix(c.head.String(), "CLUSTER_NAME: cluster-000000\nBACKUP_ENABLED: true\nBACKUP_CREDENTIALS_USERNAME: user-0\n"), c.head.String())
		}},
		{"convert of Instances", true, []string{"convert", "--schema", "demo/kep-operatorversion-v1beta1.yaml", "-"}, 9*q - 1, func(t *testing.T, c *lineCounter) {
			assert.True(t, strings.HasPrefix(c.head.String(), "apiVersion: kudo.dev/v1beta2\nkind: Instance\nspec:\n  parameters:\n    CLUSTER_NAME: cluster-000000\n    BACKUP_ENABLED: true\n"), c.head.String())
		}},
		{"migrate --output", true, []string{"migrate", "--schema", "demo/kep-upgraded-schema.yaml", "--output", out, "-"}, 0, func(t *testing.T, _ *lineCounter) {
			fi, err := os.Stat(out)
			require.NoError(t, err)
			assert.Greater(t, fi.Size(), int64(n*80))
			entries, err := os.ReadDir(filepath.Dir(out))
			require.NoError(t, err)
			assert.Len(t, entries, 1, "no temporary file is left behind")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			docs := n
			if tt.args[0] == "unwrap" || tt.args[0] == "convert" {
				docs = q
			}
			pr, pw := io.Pipe()
			gen := func() error { return kepStream(pw, docs, tt.old) }
			if tt.args[0] == "convert" {
				gen = func() error { return kepInstances(pw, docs) }
			}
			go func() { pw.CloseWithError(gen()) }()
			stdout := &lineCounter{}
			var stderr bytes.Buffer
			code := -1
			peak := peakHeap(func() {
				e := &env{stdin: pr, stdout: stdout, stderr: &stderr}
				code = e.dispatch(tt.args)
			})
			require.Equal(t, 0, code, stderr.String())
			assert.Empty(t, stderr.String())
			assert.Equal(t, tt.lines, stdout.lines)
			if tt.check != nil {
				tt.check(t, stdout)
			}
			t.Logf("%d documents: peak heap in use %.1f MB", docs, float64(peak)/(1<<20))
			if n >= 200_000 {
				assert.Less(t, peak, bound, "peak heap in use grows with the stream: is it read whole?")
			}
		})
	}
}

// TestMigrateProgressOnStandardInput: where the length of the stream is
// not known, a terminal sees how many documents are done so far.
func TestMigrateProgressOnStandardInput(t *testing.T) {
	var in bytes.Buffer
	require.NoError(t, kepStream(&in, 5000, true))
	var out, errOut bytes.Buffer
	e := &env{stdin: &in, stdout: &out, stderr: &errOut, stderrIsTerminal: true}
	require.Equal(t, 0, e.dispatch([]string{"migrate", "--schema", "demo/kep-upgraded-schema.yaml", "-"}))
	assert.Equal(t, 5000, strings.Count(out.String(), "clusterName: "))
	assert.Contains(t, errOut.String(), "\rmigrated 4000 documents")
	assert.Contains(t, errOut.String(), "\rmigrated 5000 documents")
	assert.NotContains(t, errOut.String(), "migrated 2000 documents", "nothing before 4000")
}

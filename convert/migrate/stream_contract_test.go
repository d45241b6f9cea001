package migrate_test

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/convert/migrate"
	"github.com/paramkit/paramkit/internal/streamtest"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// TestReaderCancelContract stops Reader at every point of a stream (by
// its context, its reader and emit) and checks the cancellation contract
// of params' package documentation each time.
func TestReaderCancelContract(t *testing.T) {
	s, err := schema.Parse([]byte(upgradedSchema))
	require.NoError(t, err)
	m, err := migrate.New(s)
	require.NoError(t, err)
	text := func(i int) string { return fmt.Sprintf("CLUSTER_NAME: c%d\n", i) }
	streamtest.Check(t, text, func(ctx context.Context, r io.Reader, workers int, emit func(int) error) error {
		return migrate.Reader(ctx, m, r, workers, func(d params.RawDocument, res migrate.Result) error {
			if err := res.Err(); err != nil {
				return err
			}
			name, err := params.String(res.Values, "/clusterName")
			if err != nil {
				return err
			}
			if name != fmt.Sprintf("c%d", d.Index) {
				return fmt.Errorf("document %d migrated to %q", d.Index, name)
			}
			return emit(d.Index)
		})
	})
}

// TestStreamCancelContract stops Stream by its context before the call
// and while it migrates each point of a batch (a hook cancels on document
// At): nil only when every document was migrated, ctx's error otherwise,
// and a Result for every document either way, migrated or saying it was
// not. With one worker, which migrates in order, the documents migrated
// are exactly those up to the stop.
func TestStreamCancelContract(t *testing.T) {
	const n = streamtest.Docs
	docs := make([][]byte, n)
	for i := range docs {
		docs[i] = []byte(fmt.Sprintf("CLUSTER_NAME: c%d\n", i))
	}
	s, err := schema.Parse([]byte(upgradedSchema))
	require.NoError(t, err)
	points := []struct {
		name string
		at   int // -1: before the call; n: never
	}{
		{"before the call", -1},
		{"at the first document", 0},
		{"mid-batch", 16},
		{"at the end of a batch", 31},
		{"at the start of a batch", 32},
		{"in the last batch", n - 3},
		{"at the last document", n - 1},
		{"never", n},
	}
	for _, p := range points {
		for _, workers := range streamtest.Workers {
			t.Run(fmt.Sprintf("%s/workers=%d", p.name, workers), func(t *testing.T) {
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				if p.at < 0 {
					cancel()
				}
				m, err := migrate.New(s, migrate.StepHooks(0, func(from, to any) (any, error) {
					if name, _ := params.String(from, "/CLUSTER_NAME"); name == fmt.Sprintf("c%d", p.at) {
						cancel()
					}
					return to, nil
				}, nil))
				require.NoError(t, err)

				res, err := migrate.Stream(ctx, m, docs, workers)
				require.Len(t, res, n)
				migrated := 0
				for i, r := range res {
					if r.OK() {
						migrated++
						name, err := params.String(r.Values, "/clusterName")
						require.NoError(t, err)
						assert.Equal(t, fmt.Sprintf("c%d", i), name)
						continue
					}
					require.Len(t, r.Errors, 1, "document %d", i)
					assert.True(t, strings.HasPrefix(r.Errors[0].Message, "not migrated: "), r.Errors[0].Message)
				}
				if migrated == n {
					assert.NoError(t, err)
				} else {
					assert.ErrorIs(t, err, context.Canceled, "%d of %d migrated", migrated, n)
				}
				switch {
				case p.at < 0:
					assert.Zero(t, migrated)
				case p.at == n:
					assert.Equal(t, n, migrated)
				case workers == 1: // in order: a stop at the last document leaves none behind
					assert.Equal(t, p.at+1, migrated)
				}
			})
		}
	}
}

package migrate_test

import (
	"context"
	"fmt"
	"io"
	"testing"

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
		return migrate.Reader(ctx, m, r, workers, func(d params.Document[migrate.Result]) error {
			res := d.Value
			if d.Err != nil {
				return d.Err
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

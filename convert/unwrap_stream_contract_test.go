package convert_test

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"testing"

	"github.com/paramkit/paramkit/convert"
	"github.com/paramkit/paramkit/internal/streamtest"
	"github.com/paramkit/paramkit/params"
)

// TestUnwrapReaderCancelContract stops UnwrapReader at every point of a
// stream (by its context, its reader and emit) and checks the
// cancellation contract of params' package documentation each time.
func TestUnwrapReaderCancelContract(t *testing.T) {
	text := func(i int) string { return fmt.Sprintf("N: %q\n", strconv.Itoa(i)) }
	streamtest.Check(t, text, func(ctx context.Context, r io.Reader, workers int, emit func(int) error) error {
		return convert.UnwrapReader(ctx, nil, r, workers, func(d params.Document[*convert.Converted]) error {
			c, err := d.Value, d.Err
			if err != nil {
				return err
			}
			n, err := params.Int64(c.Document, "/N")
			if err != nil {
				return err
			}
			return emit(int(n))
		})
	})
}

package params_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/internal/streamtest"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// TestMapStreamCancelContract stops MapStream at every point of a stream
// (by its context, its reader and emit) and checks the contract of the
// package documentation each time; emit gets the number work read from
// the document, so that results stay with their documents too.
func TestMapStreamCancelContract(t *testing.T) {
	streamtest.Check(t, streamtest.Text, func(ctx context.Context, r io.Reader, workers int, emit func(int) error) error {
		return params.MapStream(ctx, r, workers, func(d params.Document[int]) (int, error) {
			n, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(string(d.Text), "n:")))
			if err != nil {
				return -1, nil
			}
			return n, nil
		}, func(d params.Document[int]) error { return emit(d.Value) })
	})
}

// TestDecodeReaderCancelContract: the same for DecodeReader.
func TestDecodeReaderCancelContract(t *testing.T) {
	s, err := schema.Parse([]byte(`{"type": "object", "properties": {"n": {"type": "integer"}}}`))
	require.NoError(t, err)
	streamtest.Check(t, streamtest.Text, func(ctx context.Context, r io.Reader, workers int, emit func(int) error) error {
		return params.DecodeReader(ctx, s, r, workers, func(d params.Document[any]) error {
			if errors.Is(d.Err, params.ErrNoDocument) {
				return nil // an empty stream's one verdict: no document
			}
			n, err := params.Int64(d.Value, "/n")
			if err != nil {
				return err
			}
			if int(n) != d.Index {
				return fmt.Errorf("document %d holds %d", d.Index, n)
			}
			return emit(int(n))
		})
	})
}

package stream_test

import (
	"context"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/paramkit/paramkit/internal/stream"
	"github.com/paramkit/paramkit/internal/streamtest"
)

// TestMapCancelContract stops Map at every point of a stream, by its
// context, its reader and emit, and checks the contract each time; emit
// gets the number work read from the document, so that results stay with
// their documents too.
func TestMapCancelContract(t *testing.T) {
	streamtest.Check(t, streamtest.Text, func(ctx context.Context, r io.Reader, workers int, emit func(int) error) error {
		s := stream.NewSplitter(r)
		return stream.Map(ctx, s.Next, workers, func(d stream.Doc) int {
			n, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(string(d.Text), "n:")))
			if err != nil {
				return -1
			}
			return n
		}, func(_ stream.Doc, n int) error { return emit(n) })
	})
}

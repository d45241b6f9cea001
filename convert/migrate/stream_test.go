package migrate_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/convert/migrate"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// Reader gives each document of a stream what MigrateDocument gives it,
// with the lines of the stream.
func TestReaderMatchesMigrateDocument(t *testing.T) {
	s, err := schema.Parse([]byte(upgradedSchema))
	require.NoError(t, err)
	m, err := migrate.New(s)
	require.NoError(t, err)
	var b strings.Builder
	var docs [][]byte
	var starts []int // the line each document starts on
	line := 1
	for i := 0; i < 1000; i++ {
		doc := fmt.Sprintf("CLUSTER_NAME: c%d\nBACKUP_ENABLED: %t\n", i, i%3 == 0)
		if i%97 == 0 {
			doc = "CLUSTER_NAME: [broken\n"
		}
		b.WriteString("---\n" + doc)
		starts = append(starts, line+1)
		line += 1 + strings.Count(doc, "\n")
		docs = append(docs, []byte(doc))
	}
	want := make([]outcome, len(docs))
	for i, d := range docs {
		want[i] = got(m.MigrateDocument(d))
	}
	var emitted []outcome
	err = migrate.Reader(context.Background(), m, strings.NewReader(b.String()), 3, func(d params.Document[migrate.Result]) error {
		r := got(d.Value, d.Err)
		assert.Equal(t, len(emitted), d.Index)
		emitted = append(emitted, r)
		return nil
	})
	require.NoError(t, err)
	require.Len(t, emitted, len(want))
	for i := range want {
		assert.Equal(t, want[i].Values, emitted[i].Values, i)
		require.Len(t, emitted[i].Errors, len(want[i].Errors), i)
		for j, e := range emitted[i].Errors {
			// The same error, on the document's line in the stream.
			w := *want[i].Errors[j]
			if w.Line > 0 {
				w.Line += starts[i] - 1
			}
			assert.Equal(t, w, *e, i)
		}
	}
}

func TestReaderStops(t *testing.T) {
	s, err := schema.Parse([]byte(upgradedSchema))
	require.NoError(t, err)
	m, err := migrate.New(s)
	require.NoError(t, err)
	boom := errors.New("boom")
	in := io.MultiReader(strings.NewReader("CLUSTER_NAME: a\n---\nCLUSTER_NAME: b\n---\n"), iotest.ErrReader(boom))
	n := 0
	err = migrate.Reader(context.Background(), m, in, 0, func(params.Document[migrate.Result]) error { n++; return nil })
	assert.ErrorIs(t, err, boom)
	assert.Equal(t, 2, n)

	// A context done before the call stops it before the first document:
	// nothing is emitted, and the run says why.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	n = 0
	err = migrate.Reader(ctx, m, strings.NewReader("CLUSTER_NAME: a\n"), 0, func(params.Document[migrate.Result]) error { n++; return nil })
	assert.ErrorIs(t, err, context.Canceled)
	assert.Zero(t, n)
}

package convert_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/convert"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

const unwrapStreamSchema = "parameters:\n  - {name: NODE_COUNT, type: integer}\n  - {name: BACKUP_ENABLED, type: boolean}\n"

// TestUnwrapReader: every document of a long stream comes back in input
// order as Unwrap gives it alone; errors carry lines of the stream.
func TestUnwrapReader(t *testing.T) {
	s, err := convert.LoadSchema([]byte(unwrapStreamSchema))
	require.NoError(t, err)
	var in bytes.Buffer
	var docs []string
	for i := 0; i < 500; i++ {
		var doc string
		switch i % 3 {
		case 0:
			doc = fmt.Sprintf("NODE_COUNT: \"%d\"\nBACKUP_ENABLED: \"true\"\n", i)
		case 1:
			doc = fmt.Sprintf("kind: Instance\nmetadata: {name: i%d}\nspec:\n  parameters:\n    NODE_COUNT: \"%d\"\n", i, i)
		default:
			doc = "NODE_COUNT: x\n"
		}
		docs = append(docs, doc)
		in.WriteString("---\n" + doc)
	}
	in.WriteString("---\n# nothing\n---\n")
	lastLine := bytes.Count(in.Bytes(), []byte("\n")) + 1
	in.WriteString("NODE_COUNT: [\n")
	n := 0
	err = convert.UnwrapReader(context.Background(), s, &in, 3, func(d params.Document[*convert.Converted]) error {
		c, err := d.Value, d.Err
		require.Equal(t, n, d.Index)
		n++
		if d.Index == 500 {
			var se *schema.Error
			require.True(t, errors.As(err, &se), "%v", err)
			assert.Equal(t, schema.KindSyntax, se.Kind)
			assert.Equal(t, lastLine, se.Line, "the line in the whole stream")
			return nil
		}
		want, wantErr := convert.Unwrap(s, []byte(docs[d.Index]))
		if wantErr != nil {
			assert.Equal(t, wantErr.Error(), err.Error())
			assert.Nil(t, c)
			return nil
		}
		require.NoError(t, err)
		got, err := c.YAML()
		require.NoError(t, err)
		w, _ := want.YAML()
		assert.Equal(t, string(w), string(got))
		assert.Equal(t, want.Notes, c.Notes)
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, 501, n)
}

// TestUnwrapReaderStops: emit's error ends the run and is returned, and
// so is the error of a context done before the call.
func TestUnwrapReaderStops(t *testing.T) {
	stream := strings.Repeat("---\nA: \"1\"\n", 200)
	stop := errors.New("stop")
	n := 0
	err := convert.UnwrapReader(context.Background(), nil, strings.NewReader(stream), 0, func(d params.Document[*convert.Converted]) error {
		n++
		if d.Index == 10 {
			return stop
		}
		return d.Err
	})
	assert.ErrorIs(t, err, stop)
	assert.Equal(t, 11, n)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	n = 0
	err = convert.UnwrapReader(ctx, nil, strings.NewReader(stream), 0, func(params.Document[*convert.Converted]) error {
		n++
		return nil
	})
	assert.ErrorIs(t, err, context.Canceled)
	assert.Zero(t, n, "a context done before the call stops it before the first document")
}

// FuzzUnwrapReader: no stream makes UnwrapReader panic, and each of its
// documents comes back as Unwrap gives it alone, in order.
func FuzzUnwrapReader(f *testing.F) {
	for _, seed := range []string{
		"A: \"1\"\n---\nB: [\n---\nkind: Instance\nspec: {parameters: {NODE_COUNT: \"3\"}}\n",
		"--- NODE_COUNT: x\n...\n--- # c\n",
		"\ufeffBACKUP_ENABLED: t\n---\n---\n",
	} {
		f.Add(seed)
	}
	s, err := convert.LoadSchema([]byte(unwrapStreamSchema))
	require.NoError(f, err)
	f.Fuzz(func(t *testing.T, stream string) {
		var texts [][]byte
		_ = params.MapStream(context.Background(), strings.NewReader(stream), 1, func(params.Document[struct{}]) (struct{}, error) {
			return struct{}{}, nil
		}, func(d params.Document[struct{}]) error {
			texts = append(texts, d.Text)
			return nil
		})
		n := 0
		err := convert.UnwrapReader(context.Background(), s, strings.NewReader(stream), 2, func(d params.Document[*convert.Converted]) error {
			c, err := d.Value, d.Err
			if d.Index != n || n >= len(texts) {
				t.Fatalf("document %d out of order (%d split)", d.Index, len(texts))
			}
			n++
			want, wantErr := convert.Unwrap(s, texts[d.Index])
			if (err == nil) != (wantErr == nil) {
				t.Fatalf("document %d: %v, alone %v", d.Index, err, wantErr)
			}
			if err == nil {
				got, _ := c.YAML()
				w, _ := want.YAML()
				if !bytes.Equal(got, w) {
					t.Fatalf("document %d: %q, alone %q", d.Index, got, w)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if n != len(texts) {
			t.Fatalf("%d documents emitted, %d split", n, len(texts))
		}
	})
}

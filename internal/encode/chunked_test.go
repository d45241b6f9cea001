package encode

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// randomValue makes nested values of every kind, with keys and strings
// that need quoting, folding or block style.
func randomValue(r *rand.Rand, depth int) any {
	words := []string{"a", "yes", "007", "1.10", "null", "", " lead", "a: b", "# c", "- d", "x\ny", "long " + strings.Repeat("word ", 30),
		"tab\tin", "ünï", "key.with/dots", "~", "0x1F", "[x]", "{y}", "&anchor", "*ref", "!tag", "%p", "@at", "`tick`", "'single'", `"double"`}
	switch k := r.IntN(10); {
	case depth > 4 || k < 3:
		switch r.IntN(4) {
		case 0:
			return json.Number(fmt.Sprint(r.IntN(1000) - 500))
		case 1:
			return r.IntN(2) == 0
		case 2:
			return nil
		}
		return words[r.IntN(len(words))]
	case k < 5:
		l := make([]any, r.IntN(4))
		for i := range l {
			l[i] = randomValue(r, depth+1)
		}
		return l
	default:
		m := map[string]any{}
		for range r.IntN(8) {
			key := words[r.IntN(len(words))]
			if r.IntN(2) == 0 {
				key = fmt.Sprintf("k%d", r.IntN(100))
			}
			m[key] = randomValue(r, depth+1)
		}
		return m
	}
}

// TestYAMLChunkedSameBytes: written in parts, however small, a mapping
// gives the bytes the encoder gives for it whole.
func TestYAMLChunkedSameBytes(t *testing.T) {
	r := rand.New(rand.NewPCG(35, 4))
	for i := range 400 {
		v := randomValue(r, 0)
		m, ok := v.(map[string]any)
		if !ok {
			continue
		}
		whole, err := yamlWhole(YAMLNode(m, nil))
		require.NoError(t, err)
		for _, limit := range []int{1, 2, 3, 7, 50} {
			var got bytes.Buffer
			require.NoError(t, yamlChunked(&got, m, nil, limit))
			require.Equal(t, string(whole), got.String(), "case %d, limit %d", i, limit)
		}
	}
}

func TestYAMLChunkedOrder(t *testing.T) {
	v := map[string]any{"b": map[string]any{"y": json.Number("1"), "x": json.Number("2")}, "a": "s"}
	o := ByKeyOrder(map[string][]string{"": {"b", "a"}, "/b": {"y", "x"}})
	whole, err := yamlWhole(YAMLNode(v, o))
	require.NoError(t, err)
	var got bytes.Buffer
	require.NoError(t, yamlChunked(&got, v, o, 1))
	assert.Equal(t, string(whole), got.String())
}

// TestYAMLLargeInParts: a mapping beyond chunkNodes goes through the
// parts and still reads back.
func TestYAMLLargeInParts(t *testing.T) {
	m := map[string]any{}
	for i := range 3 * chunkNodes {
		m[fmt.Sprintf("k%05d", i)] = map[string]any{"v": json.Number(fmt.Sprint(i))}
	}
	require.Greater(t, countNodes(m, chunkNodes), chunkNodes)
	got, err := YAML(m, nil)
	require.NoError(t, err)
	whole, err := yamlWhole(YAMLNode(m, nil))
	require.NoError(t, err)
	assert.True(t, bytes.Equal(whole, got))
	// Written to a writer, the same bytes, in parts.
	w := &countingWriter{}
	require.NoError(t, YAMLTo(w, m, nil))
	assert.Equal(t, string(whole), w.String())
	assert.Greater(t, w.writes, 2, "written a part at a time")
}

// countingWriter counts the writes it is given.
type countingWriter struct {
	bytes.Buffer
	writes int
}

func (w *countingWriter) Write(p []byte) (int, error) {
	w.writes++
	return w.Buffer.Write(p)
}

// TestYAMLToWriteError: an error of the writer ends the writing.
func TestYAMLToWriteError(t *testing.T) {
	m := map[string]any{}
	for i := range 3 * chunkNodes {
		m[fmt.Sprintf("k%05d", i)] = json.Number("1")
	}
	boom := errors.New("disk full")
	assert.ErrorIs(t, YAMLTo(failingWriter{boom}, m, nil), boom)
	assert.ErrorIs(t, YAMLTo(failingWriter{boom}, map[string]any{"a": "b"}, nil), boom)
}

type failingWriter struct{ err error }

func (w failingWriter) Write([]byte) (int, error) { return 0, w.err }

// TestQuoterRemembersWhatNeedsQuotesSays: the quoter's memory never
// changes an answer, and stays bounded.
func TestQuoterRemembersWhatNeedsQuotesSays(t *testing.T) {
	q := newQuoter()
	for range 2 {
		for _, s := range []string{"500m", "1.2.3", "1.2.3-rc1", "0x1F", "2001-12-14", "2001-12-14t21:59:43.10-05:00", "yes", "1e3", "8080", "", "a b", "1 # c", "1: x", "-", "12Mi"} {
			assert.Equal(t, needsQuotes(s), q.needsQuotes(s), "%q", s)
		}
	}
	for i := range 2 * maxQuoteMemo {
		q.needsQuotes(fmt.Sprintf("%dm", i))
	}
	assert.LessOrEqual(t, len(q.memo), maxQuoteMemo)
}

// FuzzYAMLChunked: any JSON object is written in parts as whole.
func FuzzYAMLChunked(f *testing.F) {
	for _, s := range []string{`{"a":{"b":{"c":1}},"d":[1,{"e":"yes"}],"f":{}}`, `{"x\ny":{"a":1,"b":2}}`, `{"a":{"b":1},"c":{"d":{"e":null}}}`} {
		f.Add(s, 1)
	}
	f.Fuzz(func(t *testing.T, s string, limit int) {
		d := json.NewDecoder(strings.NewReader(s))
		d.UseNumber()
		var m map[string]any
		if d.Decode(&m) != nil || m == nil {
			return
		}
		limit = 1 + (limit&0xff)%16
		whole, err := yamlWhole(YAMLNode(m, nil))
		if err != nil {
			return
		}
		var got bytes.Buffer
		require.NoError(t, yamlChunked(&got, m, nil, limit))
		require.Equal(t, string(whole), got.String())
	})
}

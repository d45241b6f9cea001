package params_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

func TestTypedGetters(t *testing.T) {
	v, err := params.Decode(nil, []byte(`{"name":"x","n":3,"big":9007199254740993,"huge":1e30,"frac":2.5,"two":2.0,"on":true,"m":{"a/b":1},"l":[1,"x"]}`))
	require.NoError(t, err)

	s, err := params.String(v, "/name")
	require.NoError(t, err)
	assert.Equal(t, "x", s)
	i, err := params.Int64(v, "/big")
	require.NoError(t, err)
	assert.Equal(t, int64(9007199254740993), i, "exact, not through float64")
	i, err = params.Int64(v, "/two")
	require.NoError(t, err)
	assert.Equal(t, int64(2), i)
	b, err := params.Bool(v, "/on")
	require.NoError(t, err)
	assert.True(t, b)
	f, err := params.Float(v, "/frac")
	require.NoError(t, err)
	assert.Equal(t, 2.5, f)
	m, err := params.Map(v, "/m")
	require.NoError(t, err)
	assert.Contains(t, m, "a/b")
	n, err := params.Int64(v, "/m/a~1b")
	require.NoError(t, err)
	assert.Equal(t, int64(1), n)
	l, err := params.Slice(v, "/l")
	require.NoError(t, err)
	assert.Len(t, l, 2)

	errs := map[string]error{}
	_, errs["/missing"] = params.String(v, "/missing")
	_, errs["/n"] = params.String(v, "/n")
	_, errs["/frac"] = params.Int64(v, "/frac")
	_, errs["/huge"] = params.Int64(v, "/huge")
	_, errs["/name"] = params.Bool(v, "/name")
	_, errs["/l/5"] = params.Slice(v, "/l/5")
	_, errs["nope"] = params.Map(v, "nope")
	want := map[string]string{
		"/missing": "/missing: no value (want string)",
		"/n":       "/n: is integer, want string",
		"/frac":    "/frac: is number, want integer",
		"/huge":    "/huge: 1e30 does not fit in an int64",
		"/name":    "/name: is string, want boolean",
		"/l/5":     "/l/5: no value (want array)",
		"nope":     "nope: JSON pointer \"nope\" must start with \"/\"",
	}
	for p, err := range errs {
		var ge *schema.Error
		require.ErrorAs(t, err, &ge, p)
		assert.Equal(t, want[p], err.Error())
	}
}

package kcel

import (
	"testing"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// eval compiles an expression in the environment for stored expressions
// (no variables) and evaluates it; it returns the value, or the compile
// or evaluation error's text.
func eval(t *testing.T, kind envKind, expr string) (any, string) {
	t.Helper()
	env, err := baseEnv(kind)
	require.NoError(t, err)
	ast, iss := env.Compile(expr)
	if iss != nil && iss.Err() != nil {
		return nil, "compile: " + iss.Err().Error()
	}
	prg, err := env.Program(ast, append(programOptions(), cel.CostLimit(PerCallLimit), cel.CostTracking(&CostEstimator{}))...)
	if err != nil {
		return nil, "program: " + err.Error()
	}
	out, _, err := prg.Eval(cel.NoVars())
	if err != nil {
		return nil, err.Error()
	}
	if out.Type() == types.ErrType {
		return nil, out.(*types.Err).Error()
	}
	return out.Value(), ""
}

type libCase struct {
	expr string
	want any    // the value
	err  string // a part of the error, when one is wanted
}

func runLib(t *testing.T, cases []libCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.expr, func(t *testing.T) {
			got, err := eval(t, storedEnv, c.expr)
			if c.err != "" {
				assert.Contains(t, err, c.err)
				return
			}
			require.Empty(t, err)
			assert.Equal(t, c.want, got)
		})
	}
}

func TestListsLibrary(t *testing.T) {
	runLib(t, []libCase{
		{expr: "[1, 2, 3].isSorted()", want: true},
		{expr: "[1, 3, 2].isSorted()", want: false},
		{expr: "[].isSorted()", want: true},
		{expr: "['a', 'b', 'b'].isSorted()", want: true},
		{expr: "[1, 2, 3].sum()", want: int64(6)},
		{expr: "[].sum()", want: int64(0)},
		{expr: "[1.5, 2.5].sum()", want: 4.0},
		{expr: "[duration('1s'), duration('2s')].sum() == duration('3s')", want: true},
		{expr: "[9223372036854775807, 1].sum()", err: "overflow"},
		{expr: "[3, 1, 2].min()", want: int64(1)},
		{expr: "[3, 1, 2].max()", want: int64(3)},
		{expr: "['b', 'a'].min()", want: "a"},
		{expr: "[].min()", err: "min called on empty list"},
		{expr: "[].max()", err: "max called on empty list"},
		{expr: "[1, 2, 2, 3].indexOf(2)", want: int64(1)},
		{expr: "[1, 2, 2, 3].lastIndexOf(2)", want: int64(2)},
		{expr: "[1, 2].indexOf(5)", want: int64(-1)},
		{expr: "[].lastIndexOf(5)", want: int64(-1)},
		{expr: "[1, 2, 3].includes(2)", want: true},
		{expr: "[[1], [2]].includes([2])", want: true},
		{expr: "[1, 2, 3].slice(1, 2) == [2]", want: true},
		{expr: "[[1, 2], [3]].flatten() == [1, 2, 3]", want: true},
		{expr: "[3, 1, 2].sort() == [1, 2, 3]", want: true},
		{expr: "[1, 1, 2].distinct() == [1, 2]", want: true},
		{expr: "lists.range(3) == [0, 1, 2]", want: true},
	})
}

func TestListsIncludesOnlyForStoredRules(t *testing.T) {
	_, err := eval(t, newEnv, "[1].includes(1)")
	assert.Contains(t, err, "undeclared reference to 'includes'")
}

func TestRegexLibrary(t *testing.T) {
	runLib(t, []libCase{
		{expr: "'abc 123'.find('[0-9]+')", want: "123"},
		{expr: "'abc'.find('[0-9]+')", want: ""},
		{expr: "'1 22 333'.findAll('[0-9]+')", want: []string{"1", "22", "333"}},
		{expr: "'1 22 333'.findAll('[0-9]+', 2)", want: []string{"1", "22"}},
		{expr: "'1 22 333'.findAll('[0-9]+', 0).size()", want: int64(0)},
		{expr: "'abc'.findAll('x').size()", want: int64(0)},
		{expr: "'abc'.find('(')", err: "missing closing )"},
		{expr: "'abc'.matches('^a.c$')", want: true},
	})
}

func TestStringsLibrary(t *testing.T) {
	runLib(t, []libCase{
		{expr: "'hello'.charAt(1)", want: "e"},
		{expr: "'hello'.charAt(5)", want: ""},
		{expr: "'hello'.charAt(6)", err: "index out of range"},
		{expr: "'hello'.indexOf('l')", want: int64(2)},
		{expr: "'hello'.lastIndexOf('l')", want: int64(3)},
		{expr: "'HeLLo'.lowerAscii()", want: "hello"},
		{expr: "'hello'.upperAscii()", want: "HELLO"},
		{expr: "'a,b,c'.split(',')", want: []string{"a", "b", "c"}},
		{expr: "'a,b,c'.split(',', 2)", want: []string{"a", "b,c"}},
		{expr: "'hello'.substring(1, 3)", want: "el"},
		{expr: "'hello'.substring(3, 1)", err: "invalid substring range"},
		{expr: "'  hi  '.trim()", want: "hi"},
		{expr: "'aaa'.replace('a', 'b', 2)", want: "bba"},
		{expr: "['a', 'b'].join('-')", want: "a-b"},
		{expr: "'hello'.reverse()", err: "no matching overload for 'reverse'"}, // strings v3, not the apiserver's v2
		{expr: "strings.quote('a\"b')", want: `"a\"b"`},
		{expr: "'%s is %d'.format(['x', 3])", want: "x is 3"},
		{expr: "sets.contains([1, 2, 3], [1, 2])", want: true},
		{expr: "sets.intersects([1], [2])", want: false},
		{expr: "sets.equivalent([1, 1, 2], [2, 1])", want: true},
	})
}

func TestURLLibrary(t *testing.T) {
	runLib(t, []libCase{
		{expr: "isURL('https://example.com:8443/p?q=1')", want: true},
		{expr: "isURL('not a url')", want: false},
		{expr: "isURL('/relative/path')", want: true},
		{expr: "url('https://example.com:8443/p').getScheme()", want: "https"},
		{expr: "url('https://example.com:8443/p').getHost()", want: "example.com:8443"},
		{expr: "url('https://example.com:8443/p').getHostname()", want: "example.com"},
		{expr: "url('https://example.com:8443/p').getPort()", want: "8443"},
		{expr: "url('https://[::1]:80/').getHostname()", want: "::1"},
		{expr: "url('https://example.com/a%20b').getEscapedPath()", want: "/a%20b"},
		{expr: "url('https://example.com/?a=1&a=2&b=3').getQuery()['a']", want: []string{"1", "2"}},
		{expr: "url('not a url')", err: "URL parse error"},
	})
}

func TestIPAndCIDRLibraries(t *testing.T) {
	runLib(t, []libCase{
		{expr: "isIP('10.0.0.1')", want: true},
		{expr: "isIP('10.0.0.01')", want: false},
		{expr: "isIP('::1')", want: true},
		{expr: "isIP('::ffff:10.0.0.1')", want: false},
		{expr: "ip('10.0.0.1').family()", want: int64(4)},
		{expr: "ip('fe80::1').family()", want: int64(6)},
		{expr: "ip('127.0.0.1').isLoopback()", want: true},
		{expr: "ip('0.0.0.0').isUnspecified()", want: true},
		{expr: "ip('fe80::1').isLinkLocalUnicast()", want: true},
		{expr: "ip('8.8.8.8').isGlobalUnicast()", want: true},
		{expr: "ip.isCanonical('2001:db8::1')", want: true},
		{expr: "ip.isCanonical('2001:DB8::1')", want: false},
		{expr: "ip('10.0.0.1') == ip('10.0.0.1')", want: true},
		{expr: "ip('x')", err: "IP Address"},
		{expr: "isCIDR('10.0.0.0/8')", want: true},
		{expr: "isCIDR('10.0.0.0/33')", want: false},
		{expr: "cidr('10.0.0.0/8').containsIP('10.1.2.3')", want: true},
		{expr: "cidr('10.0.0.0/8').containsIP(ip('11.0.0.1'))", want: false},
		{expr: "cidr('10.0.0.0/8').containsCIDR('10.1.0.0/16')", want: true},
		{expr: "cidr('10.0.0.0/16').containsCIDR('10.0.0.0/8')", want: false},
		{expr: "cidr('10.1.2.3/8').masked() == cidr('10.0.0.0/8')", want: true},
		{expr: "cidr('10.0.0.0/8').prefixLength()", want: int64(8)},
		{expr: "cidr('10.0.0.0/8').ip() == ip('10.0.0.0')", want: true},
	})
}

func TestFormatLibrary(t *testing.T) {
	runLib(t, []libCase{
		{expr: "format.dns1123Label().validate('my-name') == optional.none()", want: true},
		{expr: "format.dns1123Label().validate('My_Name').hasValue()", want: true},
		{expr: "format.dns1123Subdomain().validate('a.example.com') == optional.none()", want: true},
		{expr: "format.dns1035Label().validate('1abc').hasValue()", want: true},
		{expr: "format.qualifiedName().validate('example.com/name') == optional.none()", want: true},
		{expr: "format.labelValue().validate('a b').hasValue()", want: true},
		{expr: "format.uri().validate('https://example.com') == optional.none()", want: true},
		{expr: "format.uuid().validate('123e4567-e89b-12d3-a456-426614174000') == optional.none()", want: true},
		{expr: "format.byte().validate('not base64!').hasValue()", want: true},
		{expr: "format.date().validate('2024-02-30').hasValue()", want: true},
		{expr: "format.datetime().validate('2024-01-02T03:04:05Z') == optional.none()", want: true},
		{expr: "format.named('dns1123Label').hasValue()", want: true},
		{expr: "format.named('nope').hasValue()", want: false},
	})
}

func TestQuantityLibrary(t *testing.T) {
	runLib(t, []libCase{
		{expr: "isQuantity('1.5Gi')", want: true},
		{expr: "isQuantity('100m')", want: true},
		{expr: "isQuantity('1e3')", want: true},
		{expr: "isQuantity('-0.5')", want: true},
		{expr: "isQuantity('1.5.5')", want: false},
		{expr: "isQuantity('1 Gi')", want: false},
		{expr: "isQuantity('1Gb')", want: false},
		{expr: "isQuantity('')", want: false},
		{expr: "isQuantity('.5')", want: true},
		{expr: "quantity('1Gi').asInteger()", want: int64(1073741824)},
		{expr: "quantity('1k').asInteger()", want: int64(1000)},
		{expr: "quantity('1.5').isInteger()", want: false},
		{expr: "quantity('1.5').asInteger()", err: "cannot convert value to integer"},
		{expr: "quantity('10E18').isInteger()", want: false},
		{expr: "quantity('500m').asApproximateFloat()", want: 0.5},
		{expr: "quantity('0.1n').asApproximateFloat()", want: 1e-9},
		{expr: "sign(quantity('-1n'))", want: int64(-1)}, // a function, not a method, as the apiserver declares it
		{expr: "quantity('-1n').sign()", err: "found no matching overload for 'sign'"},
		{expr: "sign(quantity('0'))", want: int64(0)},
		{expr: "quantity('1Gi').isGreaterThan(quantity('1G'))", want: true},
		{expr: "quantity('1G').isLessThan(quantity('1Gi'))", want: true},
		{expr: "quantity('1000m').compareTo(quantity('1'))", want: int64(0)},
		{expr: "quantity('1000m') == quantity('1')", want: true},
		{expr: "quantity('1Ki').add(quantity('24')) == quantity('1048')", want: true},
		{expr: "quantity('1').add(2).asInteger()", want: int64(3)},
		{expr: "sign(quantity('1').sub(quantity('1500m')))", want: int64(-1)},
		{expr: "quantity('10').sub(3).asInteger()", want: int64(7)},
		{expr: "quantity('16Ei').asInteger()", want: int64(9223372036854775807)},
		{expr: "quantity('x')", err: "quantities must match"},
		{expr: "quantity('1Qi')", err: "quantities must match"},
	})
}

func TestSemverLibrary(t *testing.T) {
	runLib(t, []libCase{
		{expr: "isSemver('1.2.3')", want: true},
		{expr: "isSemver('1.2.3-rc.1+build.5')", want: true},
		{expr: "isSemver('v1.2.3')", want: false},
		{expr: "isSemver('v1.2', true)", want: true},
		{expr: "isSemver('01.2.3')", want: false},
		{expr: "isSemver('01.2.3', true)", want: true},
		{expr: "isSemver('1.2')", want: false},
		{expr: "isSemver('1.2-rc', true)", want: false},
		{expr: "semver('1.2.3').major()", want: int64(1)},
		{expr: "semver('1.2.3').minor()", want: int64(2)},
		{expr: "semver('1.2.3').patch()", want: int64(3)},
		{expr: "semver('1.2.3').isLessThan(semver('1.10.0'))", want: true},
		{expr: "semver('1.2.3-rc.1').isLessThan(semver('1.2.3'))", want: true},
		{expr: "semver('1.2.3-alpha.2').compareTo(semver('1.2.3-alpha.10'))", want: int64(-1)},
		{expr: "semver('1.2.3+a') == semver('1.2.3+b')", want: true},
		{expr: "semver('2.0.0').isGreaterThan(semver('1.99.99'))", want: true},
		{expr: "semver('v1', true) == semver('1.0.0')", want: true},
		{expr: "semver('x')", err: "No Major.Minor.Patch elements found"},
	})
}

func TestFormatChecks(t *testing.T) {
	tests := []struct {
		typ, format string
		v           any
		ok          bool
	}{
		{"string", "byte", "aGVsbG8=", true},
		{"string", "byte", "aGVsbG8", false},
		{"string", "date-time", "2024-01-02T03:04:05Z", true},
		{"string", "date-time", "2024-01-02", false},
		// kube-openapi's IsDateTime: case-insensitive, a zone required,
		// fractions and offsets fine (kube-apiserver v1.37.2 agrees).
		{"string", "date-time", "2026-01-02t03:04:05.123z", true},
		{"string", "date-time", "2026-01-02T03:04:05+02:00", true},
		{"string", "date-time", "2026-01-02T03:04:05", false},
		{"string", "date-time", "2026-01-02T24:04:05Z", false},
		{"string", "date-time", "yesterday", false},
		{"string", "duration", "1h30m", true},
		{"string", "duration", "3 days", true},
		{"string", "duration", "P1D", true}, // the apiserver's Scala-style reading finds "1D"
		{"string", "duration", "soon", false},
		{"string", "date", "2024-02-29", true},
		{"string", "date", "2023-02-29", false},
		{"string", "uuid", "123e4567-e89b-12d3-a456-426614174000", true},
		{"string", "ipv4", "10.0.0.01", true},
		{"string", "ipv4", "::1", false},
		{"string", "ipv6", "::1", true},
		{"string", "cidr", "10.0.0.0/8", true},
		{"string", "cidr", "10.0.0.0", false},
		{"string", "hostname", "example.com", true},
		{"string", "hostname", "-bad-.com", false},
		{"string", "email", "a@example.com", true},
		{"string", "k8s-short-name", "my-name", true},
		{"string", "k8s-short-name", "My-Name", false},
		{"string", "k8s-long-name", "a.b-c.d", true},
		{"string", "unknown-format", "anything", true},
		// isbn and creditcard as kube-openapi's govalidator checks them:
		// blanks and dashes (any non-digit for a card) dropped, then the
		// check digit.
		{"string", "isbn", "0-321-75104-3", true},
		{"string", "isbn", "978-0321751041", true},
		{"string", "isbn", "0321751044", false},
		{"string", "isbn", "not an isbn", false},
		{"string", "isbn10", "080442957X", true},
		{"string", "isbn10", "978-0321751041", false},
		{"string", "isbn13", "978 0321751041", true},
		{"string", "isbn13", "0321751043", false},
		{"string", "creditcard", "4111 1111 1111 1111", true},
		{"string", "creditcard", "4111-1111-1111-1112", false},
		{"string", "creditcard", "5500000000000004", true},
		{"string", "creditcard", "1234567890123456", false},
		{"string", "credit-card", "4111111111111112", false},
		{"integer", "int32", jsonNumber("2147483647"), true},
		{"integer", "int32", jsonNumber("-2147483648"), true},
		{"integer", "int32", jsonNumber("2147483648"), false},
		{"integer", "int32", jsonNumber("-2147483649"), false},
		{"integer", "int64", jsonNumber("9223372036854775807"), true},
		{"integer", "int64", jsonNumber("9223372036854775808"), false},
		{"integer", "int32", jsonNumber("1e3"), true},
		{"number", "float", jsonNumber("3.4e38"), true},
		{"number", "float", jsonNumber("1e39"), false},
		{"number", "float", jsonNumber("-1e39"), false},
		{"number", "float", jsonNumber("1e-50"), true}, // rounds to zero: no range error
		{"number", "double", jsonNumber("1e39"), true},
	}
	for _, tt := range tests {
		t.Run(tt.format+" "+anyText(tt.v), func(t *testing.T) {
			assert.Equal(t, tt.ok, CheckFormat(tt.typ, tt.format, tt.v) == "")
		})
	}
}

package lint

import (
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
)

// The text helpers avoid allocating; these are the plain forms they must
// agree with.

func wordsRef(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !isWordRune(r) })
}

func lettersRef(w string) []rune {
	var out []rune
	for _, r := range w {
		if unicode.IsLetter(r) {
			out = append(out, r)
		}
	}
	return out
}

func allLowerRef(rs []rune) bool {
	for _, r := range rs {
		if !unicode.IsLower(r) {
			return false
		}
	}
	return true
}

func startsSentenceRef(s string) bool {
	fields := strings.Fields(s)
	if len(fields) == 0 {
		return true
	}
	letters := lettersRef(fields[0])
	if len(letters) == 0 {
		return true
	}
	if unicode.IsUpper(letters[0]) {
		return true
	}
	if r := []rune(fields[0])[0]; unicode.IsDigit(r) {
		return true
	}
	return !allLowerRef(letters)
}

func checkTextHelpers(t *testing.T, s string) {
	t.Helper()
	want := wordsRef(s)
	got := appendWords(nil, s)
	if strings.Join(want, "\x00") != strings.Join(got, "\x00") || len(want) != len(got) {
		t.Fatalf("appendWords(%q) = %q, want %q", s, got, want)
	}
	letters := lettersRef(s)
	first, n, lower, restLower := letterShape(s)
	if n != len(letters) || lower != allLowerRef(letters) ||
		(n > 0 && (first != letters[0] || restLower != allLowerRef(letters[1:]))) {
		t.Fatalf("letterShape(%q) = %q %d %v %v, want letters %q", s, first, n, lower, restLower, letters)
	}
	if got, want := startsSentence(s), startsSentenceRef(s); got != want {
		t.Fatalf("startsSentence(%q) = %v, want %v", s, got, want)
	}
}

func TestTextHelpersAgreeWithPlainForms(t *testing.T) {
	for _, s := range []string{"", " ", "Cluster name", "  the   Port of\tthe endpoint.", "İstanbul ǅungla ΣΑΣ",
		"a\xffb\xc3", "x-y_z 42abc", "\u00a0Nbsp start", "\u0085next", "ﬁ ligature", "1st place", "(Quoted) text"} {
		checkTextHelpers(t, s)
	}
}

func FuzzTextHelpers(f *testing.F) {
	f.Add("The port of the endpoint.")
	f.Add("İ\xff\u00a0x Y")
	f.Fuzz(checkTextHelpers)
}

func TestAcceptWords(t *testing.T) {
	words := []string{"etcd", "Pod Security Standards", "Pod", "cert-manager"}
	tests := map[string]string{
		"etcd settings":                   "X settings",
		"Enforced Pod Security Standards": "Enforced X",
		"Pod subnets":                     "X subnets",
		"cert-manager-crossplane":         "X-crossplane",
		"etcdctl":                         "etcdctl",
		"Metcd":                           "Metcd",
		"the etcd, the Pod":               "the X, the X",
		"":                                "",
	}
	for in, want := range tests {
		assert.Equal(t, want, acceptWords(in, words), in)
	}
	assert.Equal(t, "etcd", acceptWords("etcd", nil))
	assert.Equal(t, "etcd", acceptWords("etcd", []string{" ", ""}))
}

package lint

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Text checks for titles and descriptions (cluster-app R5 and R6).

// properNouns are capitalised words a sentence-case text may hold after
// its first word. A program cannot tell every proper noun from a wrongly
// capitalised word; acronyms (AWS) and words with inner capitals (vSphere,
// GitHub) are always accepted, these few common ones too.
var properNouns = map[string]bool{
	"Amazon": true, "Azure": true, "Calico": true, "Cilium": true, "Docker": true, "Flatcar": true,
	"Giant": true, "Swarm": true, "Google": true, "Grafana": true, "Helm": true, "Karpenter": true,
	"Kubernetes": true, "Linux": true, "Microsoft": true, "Prometheus": true, "Teleport": true,
	"Ubuntu": true, "Windows": true, "Vault": true, "Loki": true, "Kyverno": true, "Flux": true,
	"Internet": true, "I": true,
}

// caseProblem says what breaks sentence case in a title, or "".
func caseProblem(s string) string {
	words := strings.Fields(s)
	for i, w := range words {
		first, n, lower, restLower := letterShape(w)
		if n == 0 {
			continue
		}
		if i == 0 {
			if unicode.IsLower(first) && lower {
				return "start it with a capital letter"
			}
			continue
		}
		if n < 2 || !unicode.IsUpper(first) || !restLower {
			continue // acronym, inner capitals, lower case: fine
		}
		if properNouns[strings.Trim(w, "-/")] {
			continue
		}
		return "write " + quote(w) + " in lower case (sentence case capitalises only the first word and proper nouns)"
	}
	return ""
}

// letterShape describes the letters of a word: the first, how many, and
// whether all of them, and all after the first, are lower case.
func letterShape(w string) (first rune, n int, lower, restLower bool) {
	lower, restLower = true, true
	for _, r := range w {
		if !unicode.IsLetter(r) {
			continue
		}
		isLower := unicode.IsLower(r)
		if n == 0 {
			first = r
		} else if !isLower {
			restLower = false
		}
		if !isLower {
			lower = false
		}
		n++
	}
	return first, n, lower, restLower
}

// whitespaceProblem says what is wrong with the white space and control
// characters of a text, or "". Line breaks are left to the caller.
func whitespaceProblem(s string) string {
	switch {
	case s != strings.TrimLeftFunc(s, unicode.IsSpace):
		return "remove the leading white space"
	case s != strings.TrimRightFunc(s, unicode.IsSpace):
		return "remove the trailing white space"
	case strings.ContainsRune(s, '\t'):
		return "replace the tab with a space"
	}
	for _, r := range s {
		if unicode.IsControl(r) && r != '\n' && r != '\r' {
			return "remove the control character " + quoteRune(r)
		}
	}
	prev := false
	for _, r := range s {
		sp := unicode.IsSpace(r) && r != '\n' && r != '\r'
		if sp && prev {
			return "use a single space between words"
		}
		prev = sp
	}
	return ""
}

// punctuationIn returns the first punctuation mark of a title. Hyphens and
// slashes inside a word (kube-proxy, TCP/UDP) join words and are allowed.
func punctuationIn(s string) (rune, bool) {
	rs := []rune(s)
	for i, r := range rs {
		if !unicode.IsPunct(r) {
			continue
		}
		if (r == '-' || r == '/') && i > 0 && i+1 < len(rs) && isWordRune(rs[i-1]) && isWordRune(rs[i+1]) {
			continue
		}
		return r, true
	}
	return 0, false
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

var (
	htmlTag       = regexp.MustCompile(`</?[A-Za-z][A-Za-z0-9-]*(\s[^<>]*)?/?>|<!--`)
	mdLink        = regexp.MustCompile(`!?\[[^\]]+\]\([^)\s]+\)`)
	mdStrong      = regexp.MustCompile(`\*\*[^*\s][^*]*\*\*|__[^_\s][^_]*__|~~[^~\s][^~]*~~`)
	mdEmphasis    = regexp.MustCompile(`(^|\s)\*[^*\s][^*]*[^*\s]\*($|[\s.,;:!?])`)
	mdBlockPrefix = regexp.MustCompile(`^(#{1,6}\s|>\s|[-*+]\s|\d+[.)]\s)`)
)

// markupIn returns the Markdown or HTML found in a description, or "".
func markupIn(s string) string {
	if !strings.ContainsAny(s, "`<[*_~#>") && !startsWithListMarker(s) {
		return "" // the common case, without a regexp
	}
	switch {
	case strings.Contains(s, "`"):
		return "Markdown code (`)"
	case htmlTag.MatchString(s):
		return "HTML " + quote(htmlTag.FindString(s))
	case mdLink.MatchString(s):
		return "a Markdown link " + quote(mdLink.FindString(s))
	case mdStrong.MatchString(s):
		return "Markdown emphasis " + quote(mdStrong.FindString(s))
	case mdEmphasis.MatchString(s):
		return "Markdown emphasis " + quote(strings.TrimSpace(mdEmphasis.FindString(s)))
	case mdBlockPrefix.MatchString(s):
		return "a Markdown block marker " + quote(strings.TrimSpace(mdBlockPrefix.FindString(s)))
	}
	return ""
}

func startsWithListMarker(s string) bool {
	if s == "" {
		return false
	}
	c := s[0]
	return c == '-' || c == '+' || (c >= '0' && c <= '9')
}

// appendWords appends the lower-case words of a text to dst: the runs of
// letters and digits, as strings.FieldsFunc splits them.
func appendWords(dst []string, s string) []string {
	s = strings.ToLower(s)
	start := -1
	for i, r := range s {
		switch {
		case !isWordRune(r):
			if start >= 0 {
				dst = append(dst, s[start:i])
				start = -1
			}
		case start < 0:
			start = i
		}
	}
	if start >= 0 {
		dst = append(dst, s[start:])
	}
	return dst
}

// containsWords reports whether the words of sub appear in s, in a row.
func containsWords(s, sub string) bool {
	var sbuf, subbuf [64]string // words live on the stack unless there are many
	ws, subs := appendWords(sbuf[:0], s), appendWords(subbuf[:0], sub)
	if len(subs) == 0 || len(subs) > len(ws) {
		return false
	}
outer:
	for i := 0; i+len(subs) <= len(ws); i++ {
		for j, w := range subs {
			if ws[i+j] != w {
				continue outer
			}
		}
		return true
	}
	return false
}

// repeats reports whether text repeats a title: a title of several words
// anywhere in it, a one-word title (a common word, often used in passing)
// only at its start, after an article if any.
func repeats(text, title string) bool {
	var tbuf, wbuf [64]string
	tw := appendWords(tbuf[:0], title)
	if len(tw) != 1 {
		return containsWords(text, title)
	}
	ws := appendWords(wbuf[:0], text)
	if len(ws) > 1 && (ws[0] == "the" || ws[0] == "a" || ws[0] == "an") {
		ws = ws[1:]
	}
	return len(ws) > 0 && ws[0] == tw[0]
}

// identifierLike reports whether a property name reads as code rather
// than a word (clusterName, node_pools, v2).
func identifierLike(name string) bool {
	for _, r := range name {
		if unicode.IsUpper(r) || unicode.IsDigit(r) || r == '_' || r == '-' || r == '.' {
			return true
		}
	}
	return false
}

// containsIdentifier reports whether name appears in s as a whole token.
func containsIdentifier(s, name string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], name)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(name)
		before, _ := utf8.DecodeLastRuneInString(s[:start])
		after, _ := utf8.DecodeRuneInString(s[end:])
		if (start == 0 || !isWordRune(before)) && (end == len(s) || !isWordRune(after)) {
			return true
		}
		i = start + 1
	}
}

// startsSentence reports whether a description starts like a sentence: a
// capital letter, a digit, or a word with inner capitals (an identifier
// or brand a program cannot judge).
func startsSentence(s string) bool {
	word := strings.TrimLeftFunc(s, unicode.IsSpace) // the first of strings.Fields
	if i := strings.IndexFunc(word, unicode.IsSpace); i >= 0 {
		word = word[:i]
	}
	if word == "" {
		return true
	}
	first, n, lower, _ := letterShape(word)
	if n == 0 {
		return true
	}
	if unicode.IsUpper(first) {
		return true
	}
	if r, _ := utf8.DecodeRuneInString(word); unicode.IsDigit(r) {
		return true
	}
	return !lower
}

// endsSentence reports whether a text ends with sentence punctuation,
// allowing a closing bracket or quote after it.
func endsSentence(s string) bool {
	s = strings.TrimRightFunc(s, unicode.IsSpace)
	s = strings.TrimRight(s, `)"'”’`)
	r, _ := utf8.DecodeLastRuneInString(s)
	return r == '.' || r == '!' || r == '?' || r == '…'
}

func quote(s string) string { return strconv.Quote(s) }

func quoteRune(r rune) string { return fmt.Sprintf("U+%04X", r) }

// acceptWords replaces each of the words (a product name, any proper
// noun; a phrase of several words too) where it stands in s as a whole
// word by "X", a word the case and punctuation checks accept, so that
// the words pass as written: cert-manager and etcd in lower case at the
// start, Pod Security Standards capitalised inside, Node.js with its dot.
// Longer words are tried first, so a phrase wins over a word inside it.
func acceptWords(s string, words []string) string {
	if len(words) == 0 {
		return s
	}
	sorted := append([]string(nil), words...)
	sort.SliceStable(sorted, func(i, j int) bool { return len(sorted[i]) > len(sorted[j]) })
	for _, w := range sorted {
		if w = strings.TrimSpace(w); w == "" {
			continue
		}
		var b strings.Builder
		rest := s
		for {
			i := strings.Index(rest, w)
			if i < 0 {
				b.WriteString(rest)
				break
			}
			end := i + len(w)
			before, _ := utf8.DecodeLastRuneInString(rest[:i])
			after, _ := utf8.DecodeRuneInString(rest[end:])
			if (i == 0 && b.Len() == 0 || !isWordRune(before)) && (end == len(rest) || !isWordRune(after)) {
				b.WriteString(rest[:i])
				b.WriteString("X")
			} else {
				b.WriteString(rest[:end])
			}
			rest = rest[end:]
		}
		s = b.String()
	}
	return s
}

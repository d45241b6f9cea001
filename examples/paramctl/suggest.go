package main

import (
	"sort"
	"strings"
)

// closest returns the candidates nearest to name by edit distance
// (Levenshtein, case-insensitive), best first, at most three: those
// within a third of the name's length (2 edits for short names, 1 for one
// or two letters, never more than 3), and those the name is
// a prefix of. It is what "did you mean" offers for a mistyped command or
// flag.
//
// The library's own suggestions (undeclared keys, misspelt keywords) are
// internal/suggest's; examples may not import internal/ (what users copy
// must build in their module), and a CLI's rule for commands and flags
// (prefixes count) is its own, so paramctl keeps this small one.
func closest(name string, candidates []string) []string {
	type scored struct {
		name string
		d    int
	}
	lname := strings.ToLower(name)
	limit := len([]rune(lname)) / 3
	switch n := len([]rune(lname)); {
	case n <= 2:
		limit = 1
	case limit < 2:
		limit = 2
	}
	if limit > 3 {
		limit = 3
	}
	var found []scored
	for _, c := range candidates {
		lc := strings.ToLower(c)
		d := editDistance(lname, lc)
		if d <= limit || (len(lname) >= 3 && strings.HasPrefix(lc, lname)) {
			found = append(found, scored{c, d})
		}
	}
	sort.Slice(found, func(i, j int) bool {
		if found[i].d != found[j].d {
			return found[i].d < found[j].d
		}
		return found[i].name < found[j].name
	})
	if len(found) > 3 {
		found = found[:3]
	}
	out := make([]string, len(found))
	for i, f := range found {
		out[i] = f.name
	}
	return out
}

// editDistance is the Levenshtein distance between a and b in runes.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// Package suggest finds the names a mistyped name was probably meant to
// be ("did you mean ...?"), for messages about keys and flags.
package suggest

import (
	"sort"
	"strings"
)

// MaxSuggestions is how many names Closest returns at most.
const MaxSuggestions = 3

// Closest returns the candidates that name is probably a misspelling of,
// nearest first (ties in the candidates' order), at most MaxSuggestions
// of them. Nearness is the optimal string alignment distance (Levenshtein
// with transpositions of adjacent letters) between the lower-cased names,
// by runes; a candidate counts when it is within 1 edit for names of up
// to 4 letters, 2 up to 8 letters, else 3. A name differing from a
// candidate only in case is nearest of all. Candidates equal to name, and
// repeated candidates, are left out. The result is nil when nothing is
// near.
func Closest(name string, candidates []string) []string {
	limit := 3
	switch n := len([]rune(name)); {
	case n <= 4:
		limit = 1
	case n <= 8:
		limit = 2
	}
	lname := strings.ToLower(name)
	type hit struct {
		name string
		dist int // in half edits: a change of case alone is 1
		pos  int
	}
	var hits []hit
	seen := map[string]bool{}
	for i, c := range candidates {
		if c == name || seen[c] {
			continue
		}
		seen[c] = true
		d := Distance(lname, strings.ToLower(c))
		if d > limit {
			continue
		}
		hits = append(hits, hit{c, 2*d + 1, i})
		if d == 0 {
			hits[len(hits)-1].dist = 0
		}
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].dist < hits[j].dist })
	var out []string
	for _, h := range hits {
		if len(out) == MaxSuggestions {
			break
		}
		out = append(out, h.name)
	}
	return out
}

// Distance is the optimal string alignment distance between a and b, by
// runes: the fewest insertions, deletions, substitutions and
// transpositions of adjacent runes that turn a into b, no substring
// edited twice.
func Distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev2 := make([]int, len(rb)+1)
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
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}

package kube

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// The bounds of an answer.
const (
	// maxAnswerBytes bounds an admission answer.
	maxAnswerBytes = 256 << 10
	// maxWarningBytes and maxWarningChars are what the apiserver keeps
	// of a webhook's warnings: 4 KiB in total, 256 characters each.
	maxWarningBytes = 4 << 10
	maxWarningChars = 256
	// maxCauses bounds the causes of one denial; the message counts the
	// rest.
	maxCauses = 50
	// maxQuoted is the longest key or value quoted in a message, in bytes.
	maxQuoted = 64
	// maxMessage and maxField bound a cause's message and field path.
	maxMessage = 512
	maxField   = 256
)

// shorten cuts s to at most n bytes (on a character boundary), marking
// the cut with "…".
func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// capWarnings returns warnings as the apiserver keeps them: each cut to
// 256 characters, and no more of them than fit in 4 KiB in total, the
// last then saying how many were left out, counting more that were not
// even written. The apiserver drops what goes beyond silently; capped
// here, the client learns that there was more. The slice given is not
// changed.
func capWarnings(warnings []string, more int) []string {
	if len(warnings) == 0 && more == 0 {
		return warnings
	}
	all := len(warnings) + more
	out := make([]string, 0, min(len(warnings)+1, 64))
	total := 0
	for i, w := range warnings {
		w = capChars(w, maxWarningChars)
		// Room is kept for the note of what is left out.
		note := 0
		if all-i-1 > 0 {
			note = len(leftOut(all))
		}
		if total+len(w)+note > maxWarningBytes {
			return append(out, leftOut(all-i))
		}
		out = append(out, w)
		total += len(w)
	}
	if more > 0 {
		out = append(out, leftOut(more))
	}
	return out
}

func leftOut(n int) string {
	if n == 1 {
		return "paramkit: 1 more warning left out"
	}
	return fmt.Sprintf("paramkit: %d more warnings left out", n)
}

// capChars cuts s to n characters, the last being "…" when cut.
func capChars(s string, n int) string {
	if len(s) <= n || utf8.RuneCountInString(s) <= n {
		return s
	}
	var b strings.Builder
	i := 0
	for _, r := range s {
		if i == n-1 {
			break
		}
		b.WriteRune(r)
		i++
	}
	b.WriteString("…")
	return b.String()
}

// failure is a Failure status with its causes.
func failure(code int32, reason, msg string, causes []StatusCause) *Status {
	st := &Status{Status: statusFailure, Code: code, Reason: reason, Message: msg}
	if len(causes) > 0 {
		st.Details = &StatusDetails{Causes: causes}
	}
	return st
}

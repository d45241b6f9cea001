package kcel

// The OpenAPI formats the apiserver reads CEL values with (kube-openapi's
// strfmt, adapted: Apache License 2.0, the Kubernetes Authors).

import (
	"encoding/base64"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

const (
	// RFC3339FullDate is a full-date as RFC 3339 writes it.
	RFC3339FullDate = "2006-01-02"
	// DateTimePattern is strfmt's pattern of the time part of a date-time.
	DateTimePattern = `^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$`
	// UUIDPattern matches a UUID, upper case allowed.
	UUIDPattern = `(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$`
)

var (
	timeUnits = [][]string{
		{"ns", "nano"},
		{"us", "µs", "micro"},
		{"ms", "milli"},
		{"s", "sec"},
		{"m", "min"},
		{"h", "hr", "hour"},
		{"d", "day"},
		{"w", "wk", "week"},
	}
	timeMultiplier = map[string]time.Duration{
		"ns": time.Nanosecond,
		"us": time.Microsecond,
		"ms": time.Millisecond,
		"s":  time.Second,
		"m":  time.Minute,
		"h":  time.Hour,
		"d":  24 * time.Hour,
		"w":  7 * 24 * time.Hour,
	}
	durationMatcher = regexp.MustCompile(`((\d+)\s*([A-Za-zµ]+))`)
	rxUUID          = regexp.MustCompile(UUIDPattern)
	rxDateTime      = regexp.MustCompile(DateTimePattern)
	dateTimeFormats = []string{"2006-01-02T15:04:05.000000Z07:00", "2006-01-02T15:04:05.000Z07:00", time.RFC3339, time.RFC3339Nano, "2006-01-02T15:04:05"}
)

// ParseDuration reads a duration as the apiserver's format "duration"
// does: Go's syntax, else a sum of number-unit pairs ("3 days 4h").
func ParseDuration(cand string) (time.Duration, error) {
	if dur, err := time.ParseDuration(cand); err == nil {
		return dur, nil
	}
	var dur time.Duration
	ok := false
	for _, match := range durationMatcher.FindAllStringSubmatch(cand, -1) {
		factor, err := strconv.Atoi(match[2])
		if err != nil {
			return 0, err
		}
		unit := strings.ToLower(strings.TrimSpace(match[3]))
		for _, variants := range timeUnits {
			last := len(variants) - 1
			multiplier := timeMultiplier[variants[0]]
			for i, variant := range variants {
				if (last == i && strings.HasPrefix(unit, variant)) || strings.EqualFold(variant, unit) {
					ok = true
					dur += time.Duration(factor) * multiplier
				}
			}
		}
	}
	if ok {
		return dur, nil
	}
	return 0, fmt.Errorf("unable to parse %s as duration", cand)
}

// ParseDateTime reads a date-time as the apiserver's format "date-time"
// does (RFC 3339 with or without fractions; a local time too).
func ParseDateTime(data string) (time.Time, error) {
	if data == "" {
		return time.Unix(0, 0).UTC(), nil
	}
	var lastError error
	for _, layout := range dateTimeFormats {
		dd, err := time.Parse(layout, data)
		if err != nil {
			lastError = err
			continue
		}
		return dd, nil
	}
	return time.Time{}, lastError
}

// IsBase64 reports whether s is standard base64 as the format "byte"
// requires.
func IsBase64(s string) bool {
	_, err := base64.StdEncoding.DecodeString(s)
	return err == nil
}

// IsUUID reports whether s is a UUID (format "uuid").
func IsUUID(s string) bool { return rxUUID.MatchString(s) }

// IsDate reports whether s is an RFC 3339 full-date (format "date").
func IsDate(s string) bool {
	_, err := time.Parse(RFC3339FullDate, s)
	return err == nil
}

// IsDateTime reports whether s is a date-time (format "date-time") as
// kube-openapi's strfmt.IsDateTime decides: case-insensitive (a t or z in
// lower case is fine), a full-date, then DateTimePattern's time with a
// zone (z or an offset) and fields in range. ParseDateTime reads more.
func IsDateTime(s string) bool {
	if len(s) < 4 {
		return false
	}
	parts := strings.Split(strings.ToLower(s), "t")
	if len(parts) < 2 || !IsDate(parts[0]) {
		return false
	}
	m := rxDateTime.FindStringSubmatch(parts[1])
	if m == nil {
		return false
	}
	return m[1] <= "23" && m[2] <= "59" && m[3] <= "59"
}

// IsDuration reports whether s is a duration (format "duration").
func IsDuration(s string) bool {
	_, err := ParseDuration(s)
	return err == nil
}

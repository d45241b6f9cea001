//lint:file-ignore ST1005 blang/semver's messages, which the apiserver shows, kept word for word

package kcel

// Semantic versions as github.com/blang/semver/v4 v4.0.0 parses and
// compares them (the module kube-apiserver's semver library uses), copied
// with its names prefixed. Copyright (c) 2014 Benedikt Lang, MIT License.

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

const (
	numbers  string = "0123456789"
	alphas          = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-"
	alphanum        = alphas + numbers
)

// semverV represents a semver compatible version
type semverV struct {
	Major uint64
	Minor uint64
	Patch uint64
	Pre   []semverPR
	Build []string //No Precedence
}

// semverV to string
func (v semverV) String() string {
	b := make([]byte, 0, 5)
	b = strconv.AppendUint(b, v.Major, 10)
	b = append(b, '.')
	b = strconv.AppendUint(b, v.Minor, 10)
	b = append(b, '.')
	b = strconv.AppendUint(b, v.Patch, 10)

	if len(v.Pre) > 0 {
		b = append(b, '-')
		b = append(b, v.Pre[0].String()...)

		for _, pre := range v.Pre[1:] {
			b = append(b, '.')
			b = append(b, pre.String()...)
		}
	}

	if len(v.Build) > 0 {
		b = append(b, '+')
		b = append(b, v.Build[0]...)

		for _, build := range v.Build[1:] {
			b = append(b, '.')
			b = append(b, build...)
		}
	}

	return string(b)
}

// Equals checks if v is equal to o.
func (v semverV) Equals(o semverV) bool {
	return (v.Compare(o) == 0)
}

// EQ checks if v is equal to o.
func (v semverV) EQ(o semverV) bool {
	return (v.Compare(o) == 0)
}

// NE checks if v is not equal to o.
func (v semverV) NE(o semverV) bool {
	return (v.Compare(o) != 0)
}

// GT checks if v is greater than o.
func (v semverV) GT(o semverV) bool {
	return (v.Compare(o) == 1)
}

// GTE checks if v is greater than or equal to o.
func (v semverV) GTE(o semverV) bool {
	return (v.Compare(o) >= 0)
}

// GE checks if v is greater than or equal to o.
func (v semverV) GE(o semverV) bool {
	return (v.Compare(o) >= 0)
}

// LT checks if v is less than o.
func (v semverV) LT(o semverV) bool {
	return (v.Compare(o) == -1)
}

// LTE checks if v is less than or equal to o.
func (v semverV) LTE(o semverV) bool {
	return (v.Compare(o) <= 0)
}

// LE checks if v is less than or equal to o.
func (v semverV) LE(o semverV) bool {
	return (v.Compare(o) <= 0)
}

// Compare compares Versions v to o:
// -1 == v is less than o
// 0 == v is equal to o
// 1 == v is greater than o
func (v semverV) Compare(o semverV) int {
	if v.Major != o.Major {
		if v.Major > o.Major {
			return 1
		}
		return -1
	}
	if v.Minor != o.Minor {
		if v.Minor > o.Minor {
			return 1
		}
		return -1
	}
	if v.Patch != o.Patch {
		if v.Patch > o.Patch {
			return 1
		}
		return -1
	}

	// Quick comparison if a version has no prerelease versions
	if len(v.Pre) == 0 && len(o.Pre) == 0 {
		return 0
	} else if len(v.Pre) == 0 && len(o.Pre) > 0 {
		return 1
	} else if len(v.Pre) > 0 && len(o.Pre) == 0 {
		return -1
	}

	i := 0
	for ; i < len(v.Pre) && i < len(o.Pre); i++ {
		if comp := v.Pre[i].Compare(o.Pre[i]); comp == 0 {
			continue
		} else if comp == 1 {
			return 1
		} else {
			return -1
		}
	}

	// If all pr versions are the equal but one has further prversion, this one greater
	if i == len(v.Pre) && i == len(o.Pre) {
		return 0
	} else if i == len(v.Pre) && i < len(o.Pre) {
		return -1
	} else {
		return 1
	}

}

// IncrementPatch increments the patch version
func (v *semverV) IncrementPatch() error {
	v.Patch++
	return nil
}

// IncrementMinor increments the minor version
func (v *semverV) IncrementMinor() error {
	v.Minor++
	v.Patch = 0
	return nil
}

// IncrementMajor increments the major version
func (v *semverV) IncrementMajor() error {
	v.Major++
	v.Minor = 0
	v.Patch = 0
	return nil
}

// Validate validates v and returns error in case
func (v semverV) Validate() error {
	// Major, Minor, Patch already validated using uint64

	for _, pre := range v.Pre {
		if !pre.IsNum { //Numeric prerelease versions already uint64
			if len(pre.VersionStr) == 0 {
				return fmt.Errorf("Prerelease can not be empty %q", pre.VersionStr)
			}
			if !semverContainsOnly(pre.VersionStr, alphanum) {
				return fmt.Errorf("Invalid character(s) found in prerelease %q", pre.VersionStr)
			}
		}
	}

	for _, build := range v.Build {
		if len(build) == 0 {
			return fmt.Errorf("Build meta data can not be empty %q", build)
		}
		if !semverContainsOnly(build, alphanum) {
			return fmt.Errorf("Invalid character(s) found in build meta data %q", build)
		}
	}

	return nil
}

// Parse parses version string and returns a validated semverV or error
func semverParse(s string) (semverV, error) {
	if len(s) == 0 {
		return semverV{}, errors.New("semverV string empty")
	}

	// Split into major.minor.(patch+pr+meta)
	parts := strings.SplitN(s, ".", 3)
	if len(parts) != 3 {
		return semverV{}, errors.New("No Major.Minor.Patch elements found")
	}

	// Major
	if !semverContainsOnly(parts[0], numbers) {
		return semverV{}, fmt.Errorf("Invalid character(s) found in major number %q", parts[0])
	}
	if semverHasLeadingZeroes(parts[0]) {
		return semverV{}, fmt.Errorf("Major number must not contain leading zeroes %q", parts[0])
	}
	major, err := strconv.ParseUint(parts[0], 10, 64)
	if err != nil {
		return semverV{}, err
	}

	// Minor
	if !semverContainsOnly(parts[1], numbers) {
		return semverV{}, fmt.Errorf("Invalid character(s) found in minor number %q", parts[1])
	}
	if semverHasLeadingZeroes(parts[1]) {
		return semverV{}, fmt.Errorf("Minor number must not contain leading zeroes %q", parts[1])
	}
	minor, err := strconv.ParseUint(parts[1], 10, 64)
	if err != nil {
		return semverV{}, err
	}

	v := semverV{}
	v.Major = major
	v.Minor = minor

	var build, prerelease []string
	patchStr := parts[2]

	if buildIndex := strings.IndexRune(patchStr, '+'); buildIndex != -1 {
		build = strings.Split(patchStr[buildIndex+1:], ".")
		patchStr = patchStr[:buildIndex]
	}

	if preIndex := strings.IndexRune(patchStr, '-'); preIndex != -1 {
		prerelease = strings.Split(patchStr[preIndex+1:], ".")
		patchStr = patchStr[:preIndex]
	}

	if !semverContainsOnly(patchStr, numbers) {
		return semverV{}, fmt.Errorf("Invalid character(s) found in patch number %q", patchStr)
	}
	if semverHasLeadingZeroes(patchStr) {
		return semverV{}, fmt.Errorf("Patch number must not contain leading zeroes %q", patchStr)
	}
	patch, err := strconv.ParseUint(patchStr, 10, 64)
	if err != nil {
		return semverV{}, err
	}

	v.Patch = patch

	// Prerelease
	for _, prstr := range prerelease {
		parsedPR, err := semverNewPR(prstr)
		if err != nil {
			return semverV{}, err
		}
		v.Pre = append(v.Pre, parsedPR)
	}

	// Build meta data
	for _, str := range build {
		if len(str) == 0 {
			return semverV{}, errors.New("Build meta data is empty")
		}
		if !semverContainsOnly(str, alphanum) {
			return semverV{}, fmt.Errorf("Invalid character(s) found in build meta data %q", str)
		}
		v.Build = append(v.Build, str)
	}

	return v, nil
}

// semverPR represents a PreRelease semverV
type semverPR struct {
	VersionStr string
	VersionNum uint64
	IsNum      bool
}

// NewPRVersion creates a new valid prerelease version
func semverNewPR(s string) (semverPR, error) {
	if len(s) == 0 {
		return semverPR{}, errors.New("Prerelease is empty")
	}
	v := semverPR{}
	if semverContainsOnly(s, numbers) {
		if semverHasLeadingZeroes(s) {
			return semverPR{}, fmt.Errorf("Numeric PreRelease version must not contain leading zeroes %q", s)
		}
		num, err := strconv.ParseUint(s, 10, 64)

		// Might never be hit, but just in case
		if err != nil {
			return semverPR{}, err
		}
		v.VersionNum = num
		v.IsNum = true
	} else if semverContainsOnly(s, alphanum) {
		v.VersionStr = s
		v.IsNum = false
	} else {
		return semverPR{}, fmt.Errorf("Invalid character(s) found in prerelease %q", s)
	}
	return v, nil
}

// IsNumeric checks if prerelease-version is numeric
func (v semverPR) IsNumeric() bool {
	return v.IsNum
}

// Compare compares two PreRelease Versions v and o:
// -1 == v is less than o
// 0 == v is equal to o
// 1 == v is greater than o
func (v semverPR) Compare(o semverPR) int {
	if v.IsNum && !o.IsNum {
		return -1
	} else if !v.IsNum && o.IsNum {
		return 1
	} else if v.IsNum && o.IsNum {
		if v.VersionNum == o.VersionNum {
			return 0
		} else if v.VersionNum > o.VersionNum {
			return 1
		} else {
			return -1
		}
	} else { // both are Alphas
		if v.VersionStr == o.VersionStr {
			return 0
		} else if v.VersionStr > o.VersionStr {
			return 1
		} else {
			return -1
		}
	}
}

// PreRelease version to string
func (v semverPR) String() string {
	if v.IsNum {
		return strconv.FormatUint(v.VersionNum, 10)
	}
	return v.VersionStr
}

func semverContainsOnly(s string, set string) bool {
	return strings.IndexFunc(s, func(r rune) bool {
		return !strings.ContainsRune(set, r)
	}) == -1
}

func semverHasLeadingZeroes(s string) bool {
	return len(s) > 1 && s[0] == '0'
}

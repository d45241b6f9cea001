package migrate

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// versionKey is a version name parsed for ordering. Two spellings are
// understood:
//   - Kubernetes API versions, v<major>[(alpha|beta)<n>]: v1alpha1 <
//     v1alpha2 < v1beta1 < v1 < v2alpha1 < v2 (the major number first,
//     then alpha before beta before the release, then the number after the
//     stage);
//   - semantic versions, [v]MAJOR[.MINOR[.PATCH]][-PRERELEASE][+BUILD]:
//     0.1.0 < 0.2.0 < 1.0.0-rc.1 < 1.0.0 (semver 2.0.0 precedence; build
//     metadata is ignored).
//
// A Kubernetes name vN counts as the release N.0.0, so the two spellings
// can be compared with each other; a Kubernetes pre-release (v1beta1)
// sorts as 1.0.0 with the pre-release "beta.1".
type versionKey struct {
	nums [3]int64
	pre  []string // nil: a release
}

var (
	kubeVersion   = regexp.MustCompile(`^v([0-9]+)(?:(alpha|beta)([0-9]+))?$`)
	semverVersion = regexp.MustCompile(`^v?([0-9]+)(?:\.([0-9]+))?(?:\.([0-9]+))?(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$`)
)

func parseVersionKey(name string) (versionKey, error) {
	var k versionKey
	if m := kubeVersion.FindStringSubmatch(name); m != nil {
		n, err := strconv.ParseInt(m[1], 10, 64)
		if err != nil {
			return k, fmt.Errorf("version %q: major number out of range", name)
		}
		k.nums[0] = n
		if m[2] != "" {
			k.pre = []string{m[2], m[3]}
		}
		return k, nil
	}
	if m := semverVersion.FindStringSubmatch(name); m != nil {
		for i := 0; i < 3; i++ {
			if m[i+1] == "" {
				continue
			}
			n, err := strconv.ParseInt(m[i+1], 10, 64)
			if err != nil {
				return k, fmt.Errorf("version %q: number out of range", name)
			}
			k.nums[i] = n
		}
		if m[4] != "" {
			k.pre = strings.Split(m[4], ".")
		}
		return k, nil
	}
	return k, fmt.Errorf("version %q is neither a Kubernetes version (v1alpha1, v1beta2, v1) nor a semantic version (0.2.0): order the set in versions.yaml", name)
}

// compareVersionKeys returns -1, 0 or 1 as a sorts before, with or after b.
func compareVersionKeys(a, b versionKey) int {
	for i := 0; i < 3; i++ {
		if a.nums[i] != b.nums[i] {
			if a.nums[i] < b.nums[i] {
				return -1
			}
			return 1
		}
	}
	switch {
	case a.pre == nil && b.pre == nil:
		return 0
	case a.pre == nil:
		return 1
	case b.pre == nil:
		return -1
	}
	for i := 0; i < len(a.pre) && i < len(b.pre); i++ {
		x, y := a.pre[i], b.pre[i]
		xn, xerr := strconv.ParseUint(x, 10, 64)
		yn, yerr := strconv.ParseUint(y, 10, 64)
		switch {
		case xerr == nil && yerr == nil:
			if xn != yn {
				if xn < yn {
					return -1
				}
				return 1
			}
		case xerr == nil: // numeric identifiers sort before alphanumeric ones
			return -1
		case yerr == nil:
			return 1
		case x != y:
			if x < y {
				return -1
			}
			return 1
		}
	}
	switch {
	case len(a.pre) < len(b.pre):
		return -1
	case len(a.pre) > len(b.pre):
		return 1
	}
	return 0
}

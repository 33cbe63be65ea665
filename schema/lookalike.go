package schema

import (
	"strings"

	"github.com/mtibben/confusables"
	"golang.org/x/text/unicode/norm"
)

// NameSkeleton is the form two names share when a reader may take one for
// the other: NFKC, invisible characters removed (see [NameProblem]), then
// Unicode TR39's confusable skeleton, which keeps case and so tells capital
// I from small l apart from nothing ("gmaiI" and "gmail" share "grnail", as
// m and rn do, and Cyrillic а and Latin a), then lower-cased, so that names
// differing in case alone share it too.
func NameSkeleton(name string) string {
	return strings.ToLower(confusables.Skeleton(stripHidden(norm.NFKC.String(name))))
}

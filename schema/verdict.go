package schema

import (
	"slices"
	"strconv"
	"strings"

	"github.com/kaptinlin/jsonschema"
)

// errorWalk turns a kaptinlin evaluation tree into field errors at absolute
// paths in card names.
type errorWalk struct {
	v       *Validator
	args    map[string]any // provider-keyed arguments that were validated
	missing []Missing      // already reported; their "required" errors are not repeated
	errors  []FieldError
}

// summaryCodes are errors that only say a child failed; they are reported
// only when no child error was.
var summaryCodes = []string{
	"property_mismatch", "properties_mismatch", "item_mismatch", "items_mismatch",
	"prefix_item_mismatch", "prefix_items_mismatch", "additional_property_mismatch",
	"additional_properties_mismatch", "pattern_property_mismatch", "pattern_properties_mismatch",
	"all_of_item_mismatch", "ref_mismatch", "dynamic_ref_mismatch", "dependent_schema_mismatch",
	"dependent_schemas_mismatch", "unevaluated_property_mismatch", "unevaluated_properties_mismatch",
	"unevaluated_item_mismatch", "unevaluated_items_mismatch", "if_then_mismatch", "if_else_mismatch",
	"content_schema_mismatch",
}

// branchPaths are evaluation paths whose failure is not an error in itself:
// a failed "if", the inside of "not", alternatives, contains probes.
var branchPaths = []string{"/if", "/not", "/anyOf/", "/oneOf/", "/contains", "/propertyNames/"}

// collect reports the errors of r and its failed children; it returns how
// many failures it accounted for, reported or left to Missing.
func (w *errorWalk) collect(r *jsonschema.EvaluationResult, base []string) int {
	path := base
	if token, ok := strings.CutPrefix(r.InstanceLocation, "/"); ok {
		path = append(slices.Clone(base), token)
	}
	if !w.exists(path) {
		return 1 // a missing required input, evaluated as null: reported as missing
	}
	reported := 0
	for _, d := range r.Details {
		if d.IsValid() || isBranch(d.EvaluationPath) {
			continue
		}
		reported += w.collect(d, path)
	}
	keywords := make([]string, 0, len(r.Errors))
	for k := range r.Errors {
		keywords = append(keywords, k)
	}
	slices.Sort(keywords)
	for _, k := range keywords {
		e := r.Errors[k]
		if reported > 0 && slices.Contains(summaryCodes, e.Code) {
			continue
		}
		if k == "required" && w.missingUnder(path) {
			continue
		}
		w.errors = append(w.errors, FieldError{Path: w.v.pointer(path), Message: message(e, len(path) == 0)})
		reported++
	}
	return reported
}

func isBranch(evaluationPath string) bool {
	for _, p := range branchPaths {
		if strings.HasPrefix(evaluationPath, p) || evaluationPath == strings.TrimSuffix(p, "/") {
			return true
		}
	}
	return false
}

// exists reports whether a provider path names a value in the arguments.
func (w *errorWalk) exists(path []string) bool {
	var at any = w.args
	for _, token := range path {
		switch v := at.(type) {
		case map[string]any:
			next, ok := v[token]
			if !ok {
				return false
			}
			at = next
		case []any:
			i, err := strconv.Atoi(token)
			if err != nil || i < 0 || i >= len(v) {
				return false
			}
			at = v[i]
		default:
			return false
		}
	}
	return true
}

// missingUnder reports whether a Missing entry is a direct child of path.
func (w *errorWalk) missingUnder(path []string) bool {
	prefix := w.v.pointer(path) + "/"
	for _, m := range w.missing {
		if rest, ok := strings.CutPrefix(m.Path, prefix); ok && !strings.Contains(rest, "/") {
			return true
		}
	}
	return false
}

// message words one evaluation error for a model: short, sanitized, and
// never naming a provider property the card shows under an alias (only
// top-level names are aliased, so nested errors keep the validator's words).
func message(e *jsonschema.EvaluationError, top bool) string {
	var text string
	switch e.Code {
	case "any_of_item_mismatch", "one_of_item_mismatch":
		text = "matches none of the allowed forms"
	case "one_of_multiple_matches":
		text = "matches more than one of the allowed forms"
	case "false_schema_mismatch", "additional_property_false":
		text = "is not an accepted input"
	case "missing_required_property", "missing_required_properties", "dependent_property_required":
		if top {
			text = "lacks inputs required together with the ones given"
		} else {
			text = e.Error()
		}
	default:
		text = e.Error()
	}
	clean, _ := Sanitize(text, messageChars)
	if clean == "" {
		return "does not match the input schema"
	}
	return clean
}

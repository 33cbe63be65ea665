package bridge

import (
	"encoding/json"
	"errors"

	"github.com/capbridge/capbridge/schema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// boundsFailure answers invalid_params when an object or array in a
// run_capability call's arguments is past [schema.MaxArgMembers] or
// [schema.MaxArgItems], or returns nil. It runs before anything decodes
// the arguments, so an oversized params costs one partial scan, not the
// decoding, mapping and validation of every member.
func boundsFailure(args json.RawMessage) *mcp.CallToolResult {
	var be *schema.ArgBoundError
	if err := schema.CheckArgBounds(args); errors.As(err, &be) {
		return invalidParams([]fieldError{{Path: be.Path, Message: be.Error()}})
	}
	return nil
}

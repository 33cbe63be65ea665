package bridge

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/capbridge/capbridge/internal/rpcwire"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// maxExactID is the largest integer id every JSON-RPC peer (a float64 one
// included) reads back exactly: go-sdk turns a numeric id into a float64
// before it answers, so a larger one would come back as another number.
const maxExactID = 1 << 53

// lineError is the JSON-RPC error a client line gets instead of reaching
// go-sdk, whose stdio transport ends the whole session on a message it
// cannot decode.
type lineError struct {
	id   json.RawMessage // the request's id, or nil for null
	code int64           // jsonrpc.CodeParseError or jsonrpc.CodeInvalidRequest
	why  string
}

// response is e as the one JSON-RPC response line that answers it.
func (e *lineError) response() []byte {
	id := e.id
	if id == nil {
		id = json.RawMessage("null")
	}
	prefix := "Invalid Request: "
	if e.code == jsonrpc.CodeParseError {
		prefix = "Parse error: "
	}
	type wireError struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	}
	resp, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   wireError       `json:"error"`
	}{"2.0", id, wireError{e.code, prefix + e.why}})
	if err != nil { // the id was checked to be a JSON string or number
		panic(fmt.Sprintf("encoding a JSON-RPC error: %v", err))
	}
	return append(resp, '\n')
}

func parseError(why string) *lineError { return &lineError{code: jsonrpc.CodeParseError, why: why} }

func invalidRequest(id json.RawMessage, why string) *lineError {
	return &lineError{id: id, code: jsonrpc.CodeInvalidRequest, why: why}
}

// checkLine decodes line, with blanks around it trimmed, when it is one
// JSON-RPC 2.0 message as MCP has them: a request, a notification or a
// response, one JSON object with a "jsonrpc":"2.0" member, a string or
// integer id (never null), a string method and structured params. What is
// not JSON gets a parse error; any other value (a batch included: MCP
// 2025-06-18 removed batching) gets an invalid request error, with the
// message's id when it has a usable one, else null.
func checkLine(line []byte) (jsonrpc.Message, *lineError) {
	if !json.Valid(line) {
		return nil, parseError("not one JSON value (a JSON-RPC message is one JSON object a line)")
	}
	switch line[0] {
	case '{':
	case '[':
		return nil, invalidRequest(nil, "JSON-RPC batches are not supported (MCP 2025-06-18 removed them): send one message a line")
	default:
		return nil, invalidRequest(nil, "a JSON-RPC message is a JSON object")
	}
	m, err := rpcwire.Split(line)
	if err != nil {
		return nil, invalidRequest(nil, err.Error())
	}
	id, idErr := checkID(m.ID)
	if idErr != nil {
		return nil, invalidRequest(nil, idErr.Error())
	}
	if string(m.Version) != `"2.0"` {
		return nil, invalidRequest(id, `"jsonrpc" must be "2.0"`)
	}
	if m.Method != nil {
		if m.Method[0] != '"' {
			return nil, invalidRequest(id, `"method" must be a string`)
		}
		if p := m.Params; p != nil && p[0] != '{' && p[0] != '[' && string(p) != "null" {
			return nil, invalidRequest(id, `"params" must be an object or an array`)
		}
	} else if err := checkResponse(id, m); err != nil {
		return nil, invalidRequest(nil, err.Error())
	}
	// go-sdk's own decoding (rpcwire reads as it does): what it would make
	// of the line, and what the session is handed ([guardConn]), so that
	// nothing it cannot decode reaches it.
	msg, err := m.Decode(line)
	if err != nil {
		return nil, invalidRequest(id, err.Error())
	}
	return msg, nil
}

// checkID returns the raw id, nil when there is none; an id that is null,
// not a string or number, or a number no peer reads back exactly is an
// error.
func checkID(id json.RawMessage) (json.RawMessage, error) {
	if id == nil {
		return nil, nil
	}
	switch c := id[0]; {
	case c == '"':
		return id, nil
	case c == '-' || (c >= '0' && c <= '9'):
		f, err := strconv.ParseFloat(string(id), 64)
		if err != nil || f != math.Trunc(f) || math.Abs(f) > maxExactID {
			return nil, fmt.Errorf(`"id" %.40s is not an integer within ±2^53`, id)
		}
		return id, nil
	case c == 'n':
		return nil, errors.New(`"id" must not be null (MCP): use a string or an integer, or leave it out for a notification`)
	}
	return nil, errors.New(`"id" must be a string or an integer`)
}

// checkResponse checks a message with no method, which can only be the
// client's answer to a request of the server's: it needs an id and
// exactly one of result and an error object.
func checkResponse(id json.RawMessage, m rpcwire.Members) error {
	if id == nil {
		return errors.New(`a message needs "method" (a request or notification), or "id" with "result" or "error" (a response)`)
	}
	hasResult, errObj := m.Result != nil, m.Error
	hasError := errObj != nil
	switch {
	case hasResult == hasError:
		return errors.New(`a response needs exactly one of "result" and "error"`)
	case hasError:
		var e struct {
			Code    *json.Number `json:"code"`
			Message *string      `json:"message"`
		}
		if errObj[0] != '{' || json.Unmarshal(errObj, &e) != nil || e.Code == nil || e.Message == nil {
			return errors.New(`"error" must be an object with an integer "code" and a string "message"`)
		}
		if _, err := e.Code.Int64(); err != nil {
			return errors.New(`"error" must be an object with an integer "code" and a string "message"`)
		}
	}
	return nil
}

package upstream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A tool whose execution.taskSupport is "required" answers a plain
// tools/call with an error: it must be called as a task (MCP tasks,
// SEP-1686, protocol 2025-11-25). go-sdk v1.8.0 knows nothing of tasks, so
// capbridge sends their requests itself ([ownRequests]): tools/call with a
// "task" member, which the server answers with the task it created, then
// tasks/result, which the server answers once the task has ended, with the
// tool's result. While the task runs, the server's requests tied to it
// (elicitation, when the task needs input) reach the session's client
// handlers as any other request over stdio, and [conn.answerServer] on
// the stream of tasks/result over Streamable HTTP.

// taskCancelWait bounds telling the server to cancel a task whose call
// ended before it did.
const taskCancelWait = 2 * time.Second

// taskCallParams are the params of a task-augmented tools/call.
type taskCallParams struct {
	Meta      mcp.Meta `json:"_meta,omitempty"`
	Name      string   `json:"name"`
	Arguments any      `json:"arguments,omitempty"`
	Task      taskHint `json:"task"`
}

// taskHint asks the server to keep the task and its result for TTL
// milliseconds.
type taskHint struct {
	TTL int64 `json:"ttl"`
}

// createdTask is what a server answers to a task-augmented request.
type createdTask struct {
	Task *struct {
		TaskID string `json:"taskId"`
		Status string `json:"status"`
	} `json:"task"`
}

// callTask runs params as a task on c and returns the tool's result, bounded
// by ctx; ttl is how long the server is asked to keep the task. When ctx
// ends first, the server is asked to cancel the task.
func (c *conn) callTask(ctx context.Context, params *mcp.CallToolParams, ttl time.Duration) (*mcp.CallToolResult, error) {
	raw, err := c.own.call(ctx, "tools/call", taskCallParams{
		Meta: params.Meta, Name: params.Name, Arguments: params.Arguments,
		Task: taskHint{TTL: ttl.Milliseconds()},
	})
	if err != nil {
		return nil, err
	}
	var created createdTask
	if err := json.Unmarshal(raw, &created); err != nil {
		return nil, fmt.Errorf("reading the answer to tools/call: %w", err)
	}
	if created.Task == nil {
		// The server ran the tool at once (a task is optional for it).
		return decodeToolResult(raw)
	}
	id := created.Task.TaskID
	if id == "" {
		return nil, errors.New("the server created a task with no taskId")
	}
	// tasks/result is answered once the task has ended (completed, failed,
	// or cancelled), with what tools/call would have answered.
	raw, err = c.own.call(ctx, "tasks/result", map[string]string{"taskId": id})
	if err != nil {
		if ctx.Err() != nil {
			c.cancelTask(id)
		}
		return nil, fmt.Errorf("task %q: %w", id, err)
	}
	return decodeToolResult(raw)
}

// cancelTask asks the server to cancel task id, without waiting longer
// than taskCancelWait: the call it served has ended.
func (c *conn) cancelTask(id string) {
	ctx, cancel := context.WithTimeout(context.Background(), taskCancelWait)
	defer cancel()
	_, _ = c.own.call(ctx, "tasks/cancel", map[string]string{"taskId": id})
}

// answerServer answers a request the server sends on one of capbridge's
// own HTTP streams (a task's, while it waits on input) as go-sdk's client
// answers those on its streams: through the session's ask router, to the
// client of the call in flight; progress and log messages sent there go
// the same way.
func (c *conn) answerServer(ctx context.Context, r *jsonrpc.Request) (any, error) {
	switch r.Method {
	case "ping":
		return struct{}{}, nil
	case "roots/list":
		return c.asks.listRoots(ctx)
	case "elicitation/create":
		p := new(mcp.ElicitParams)
		if err := json.Unmarshal(r.Params, p); err != nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: err.Error()}
		}
		return c.asks.elicit(ctx, &mcp.ElicitRequest{Params: p})
	case "notifications/progress":
		p := new(mcp.ProgressNotificationParams)
		if json.Unmarshal(r.Params, p) == nil {
			c.asks.progress(ctx, p)
		}
		return nil, nil
	case "notifications/message":
		//lint:ignore SA1019 logging, deprecated by MCP 2026-07-28 (SEP-2577), is passed on for the servers that still use it
		p := new(mcp.LoggingMessageParams)
		if json.Unmarshal(r.Params, p) == nil {
			c.asks.log(ctx, p)
		}
		return nil, nil
	case "sampling/createMessage":
		//lint:ignore SA1019 sampling, deprecated by MCP 2026-07-28 (SEP-2577), is passed on for the servers that still use it
		p := new(mcp.CreateMessageWithToolsParams)
		if err := json.Unmarshal(r.Params, p); err != nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: err.Error()}
		}
		return c.asks.createMessage(ctx, &mcp.CreateMessageWithToolsRequest{Params: p})
	}
	return nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "Method not found"}
}

func decodeToolResult(raw json.RawMessage) (*mcp.CallToolResult, error) {
	var res mcp.CallToolResult
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, fmt.Errorf("reading the tool's result: %w", err)
	}
	return &res, nil
}

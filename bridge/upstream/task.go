package upstream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

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
// handlers as any other request over stdio.

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

func decodeToolResult(raw json.RawMessage) (*mcp.CallToolResult, error) {
	var res mcp.CallToolResult
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, fmt.Errorf("reading the tool's result: %w", err)
	}
	return &res, nil
}

package main

import (
	"context"
	"errors"
)

func runDemoServer(ctx context.Context, e env) error { return errors.New("demo-server: not implemented yet") }

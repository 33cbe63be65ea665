package main

import (
	"context"
	"errors"
)

func runServe(ctx context.Context, e env) error { return errors.New("serve: not implemented yet") }

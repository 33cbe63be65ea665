package main

import (
	"context"
	"errors"
)

func runIndex(ctx context.Context, e env) error { return errors.New("index: not implemented yet") }

package main

import (
	"context"
	"errors"
)

func runDemo(ctx context.Context, e env) error { return errors.New("demo: not implemented yet") }

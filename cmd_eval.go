package main

import (
	"context"
	"errors"
)

func runEval(ctx context.Context, e env) error { return errors.New("eval: not implemented yet") }

package store

import (
	"context"
	"strings"
	"testing"
)

func TestTouchCatalog(t *testing.T) {
	tests := []struct {
		name    string
		stored  string // the listing ReplaceCatalog stored; "-": no server row
		listing string // the listing TouchCatalog is given
		want    bool   // recognized as unchanged
	}{
		{"same listing", "L1", "L1", true},
		{"changed listing", "L1", "L2", false},
		{"stored without a listing", "", "", false},
		{"given no listing", "L1", "", false},
		{"server not stored", "-", "L1", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := openTemp(t)
			ctx := context.Background()
			if tt.stored != "-" {
				err := s.ReplaceCatalog(ctx, Server{Name: "srv", Fingerprint: "fp1", Listing: tt.stored},
					toolSeq(tool("alpha", "first"), tool("beta", "second"), refused("gamma", "too deep")))
				if err != nil {
					t.Fatal(err)
				}
			}
			before := count(t, s, "SELECT count(*) FROM tools")
			got, err := s.TouchCatalog(ctx, Server{Name: "srv", Fingerprint: "fp2", State: "partial", LastError: "cut", Bytes: 7, Listing: tt.listing})
			if err != nil {
				t.Fatal(err)
			}
			if (got != nil) != tt.want {
				t.Fatalf("TouchCatalog = %+v, want unchanged %v", got, tt.want)
			}
			if after := count(t, s, "SELECT count(*) FROM tools"); after != before {
				t.Errorf("tools %d -> %d: TouchCatalog must not touch tools", before, after)
			}
			srvs, err := s.Servers(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if !tt.want {
				if len(srvs) == 1 && srvs[0].Fingerprint != "fp1" {
					t.Errorf("server row written for a listing not recognized: %+v", srvs[0])
				}
				return
			}
			if got.Stored != 2 || len(got.Refused) != 1 || got.Refused[0].Name != "gamma" || got.Refused[0].Refusal != "too deep" {
				t.Errorf("TouchCatalog = %+v, want 2 stored and gamma refused", got)
			}
			if s := srvs[0]; s.Fingerprint != "fp2" || s.State != "partial" || s.LastError != "cut" || s.Bytes != 7 || s.Listing != tt.stored {
				t.Errorf("server row = %+v, want fp2, partial, cut, 7 bytes, listing %s", s, tt.stored)
			}
		})
	}
}

// TestTouchCatalogReadsIndexOnly checks that what TouchCatalog reads of an
// unchanged catalog comes from an index that holds no records or cards.
func TestTouchCatalogReadsIndexOnly(t *testing.T) {
	s, _ := openTemp(t)
	for _, q := range []string{countStored, listRefused} {
		plan := queryPlan(t, s, q, "srv")
		if len(plan) == 0 || !strings.Contains(plan[0], "USING COVERING INDEX tools_refused") {
			t.Errorf("%s\nplan %q, want a search of the covering index tools_refused", q, plan)
		}
	}
}

// TestServersReadIndexOnly checks that Servers counts tools and refusals
// from an index alone and visits only the held pins: none of it reads a
// row of every tool.
func TestServersReadIndexOnly(t *testing.T) {
	s, _ := openTemp(t)
	plan := queryPlan(t, s, listServers)
	for _, line := range plan {
		switch {
		case strings.Contains(line, " t "):
			if !strings.Contains(line, "COVERING INDEX tools_refused") {
				t.Errorf("plan line %q counts tools from their rows, want the covering index tools_refused", line)
			}
		case strings.Contains(line, " p "):
			if !strings.Contains(line, "INDEX pins_held") {
				t.Errorf("plan line %q visits every pin, want the held ones alone (pins_held)", line)
			}
		}
	}
	if len(plan) < 4 {
		t.Errorf("plan %q: want the servers scan and each count", plan)
	}
}

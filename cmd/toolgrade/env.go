package main

import (
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/toolgrade/toolgrade/config"
)

// envFlags are the flags for what metrics share across a run (the judge,
// the run's tool definitions).
type envFlags struct{}

func (f *envFlags) register(fs *pflag.FlagSet) {}

// runEnv builds what the metrics of a run share, from flags and config.
func (m *Main) runEnv(cmd *cobra.Command, f *envFlags, cfg *config.Config) (*config.Env, error) {
	env := &config.Env{}
	return env, nil
}

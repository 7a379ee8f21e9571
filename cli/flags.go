package cli

import "github.com/polyproxy/polyproxy/internal/flagval"

// The flag values the commands share (see package flagval).
var (
	intFlag     = flagval.Int
	percentFlag = flagval.Percent
)

type playerList = flagval.Players

package tool

// Name is the tool's name.
const Name = "tool"

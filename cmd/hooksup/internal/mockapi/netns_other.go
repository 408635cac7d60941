//go:build !linux

package mockapi

import "errors"

type netNS struct{ id string }

func newNetNS() (*netNS, error) {
	return nil, errors.New("network namespaces need Linux")
}

func (n *netNS) do(f func()) bool { f(); return true }

func (n *netNS) close() {}

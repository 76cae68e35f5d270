//go:build unix

package server

import (
	"errors"
	"net"
	"syscall"
)

// peerClosed says whether the client has closed or reset the connection:
// a peek at the socket, which never waits, finds the end of the stream or
// an error. Bytes waiting to be read (a client that sends ahead) or none
// at all mean it is still there.
func peerClosed(sock net.Conn) bool {
	sc, ok := sock.(syscall.Conn)
	if !ok {
		return false
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return false
	}
	closed := false
	err = raw.Read(func(fd uintptr) bool {
		var b [1]byte
		n, _, err := syscall.Recvfrom(int(fd), b[:], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
		switch {
		case errors.Is(err, syscall.EAGAIN), errors.Is(err, syscall.EINTR):
		case err != nil:
			closed = true
		case n == 0:
			closed = true
		}
		return true
	})
	return closed || errors.Is(err, net.ErrClosed)
}

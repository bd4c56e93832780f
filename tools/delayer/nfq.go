package main

import (
	"encoding/binary"
	"errors"
	"fmt"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The few netlink messages of nfnetlink_queue the delayer needs (linux/netfilter/nfnetlink_queue.h),
// on a plain blocking socket read by one OS thread: no event loop between the kernel and the queue,
// so a burst of packets costs one read, not one wake-up each.
const (
	nfnlSubsysQueue   = 3
	nfqnlMsgPacket    = 0
	nfqnlMsgConfig    = 2
	nfqnlMsgVerdictBt = 3

	nfqaPacketHdr  = 1
	nfqaVerdictHdr = 2
	nfqaTimestamp  = 4

	nfqaCfgCmd         = 1
	nfqaCfgParams      = 2
	nfqaCfgQueueMaxlen = 3
	nfqaCfgMask        = 4
	nfqaCfgFlags       = 5

	nfqnlCfgCmdBind = 1
	nfqnlCopyMeta   = 1
	nfqaCfgFGSO     = 1 << 2
	nfqaCfgFFailOp  = 1 << 0

	nfAccept = 1
)

// nfq is one bound netfilter queue.
type nfq struct {
	fd    int
	queue uint16
	seq   uint32
	// Reused on every verdict and wait, so the loop allocates nothing per packet or per batch.
	out, attrs []byte
	poll       [1]unix.PollFd
}

// openQueue binds queue `queue` with metadata-only copies (the payload never leaves the kernel), GSO
// packets kept whole (no software segmentation just to queue them) and no fail-open (a full queue
// drops, and the kernel counts it: a silent pass-through would hide that the delay was not applied).
func openQueue(queue uint16, maxQueueLen uint32, readBuffer int) (*nfq, error) {
	fd, err := unix.Socket(unix.AF_NETLINK, unix.SOCK_RAW|unix.SOCK_CLOEXEC, unix.NETLINK_NETFILTER)
	if err != nil {
		return nil, fmt.Errorf("netlink socket: %w", err)
	}
	q := &nfq{fd: fd, queue: queue, poll: [1]unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}}
	fail := func(what string, err error) (*nfq, error) {
		unix.Close(fd)
		return nil, fmt.Errorf("%s: %w (root, in the router namespace?)", what, err)
	}
	if err := unix.Bind(fd, &unix.SockaddrNetlink{Family: unix.AF_NETLINK}); err != nil {
		return fail("bind netlink", err)
	}
	if err := unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_RCVBUFFORCE, readBuffer); err != nil {
		return fail("netlink read buffer", err)
	}
	cmd := []byte{nfqnlCfgCmdBind, 0, 0, 0} // command, pad, pf (unused since Linux 3.8)
	params := binary.BigEndian.AppendUint32(nil, 0)
	params = append(params, nfqnlCopyMeta)
	steps := []struct {
		what  string
		attrs []byte
	}{
		{"bind netfilter queue", attr(nil, nfqaCfgCmd, cmd)},
		{"queue copy mode", attr(nil, nfqaCfgParams, params)},
		{"queue length", attr(nil, nfqaCfgQueueMaxlen, be32(maxQueueLen))},
		{"queue flags", attr(attr(nil, nfqaCfgMask, be32(nfqaCfgFGSO|nfqaCfgFFailOp)), nfqaCfgFlags, be32(nfqaCfgFGSO))},
	}
	for _, step := range steps {
		if err := q.request(nfqnlMsgConfig, step.attrs); err != nil {
			return fail(step.what, err)
		}
	}
	return q, nil
}

func be32(v uint32) []byte { return binary.BigEndian.AppendUint32(nil, v) }

// attr appends one netlink attribute (4-byte aligned).
func attr(b []byte, typ uint16, data []byte) []byte {
	b = binary.NativeEndian.AppendUint16(b, uint16(4+len(data)))
	b = binary.NativeEndian.AppendUint16(b, typ)
	b = append(b, data...)
	for len(b)%4 != 0 {
		b = append(b, 0)
	}
	return b
}

// message builds one nfnetlink message to the queue.
func (q *nfq) message(msgType uint16, flags uint16, attrs []byte) []byte {
	q.seq++
	b := q.out[:0]
	b = binary.NativeEndian.AppendUint32(b, uint32(unix.NLMSG_HDRLEN+4+len(attrs)))
	b = binary.NativeEndian.AppendUint16(b, nfnlSubsysQueue<<8|msgType)
	b = binary.NativeEndian.AppendUint16(b, unix.NLM_F_REQUEST|flags)
	b = binary.NativeEndian.AppendUint32(b, q.seq)
	b = binary.NativeEndian.AppendUint32(b, 0)
	b = append(b, unix.AF_UNSPEC, 0) // nfgenmsg: family, version 0
	b = binary.BigEndian.AppendUint16(b, q.queue)
	b = append(b, attrs...)
	q.out = b
	return b
}

// request sends a configuration message and waits for the kernel's acknowledgement. Only used before
// any packet is queued, so the first message back is the answer.
func (q *nfq) request(msgType uint16, attrs []byte) error {
	if err := unix.Sendto(q.fd, q.message(msgType, unix.NLM_F_ACK, attrs), 0, &unix.SockaddrNetlink{Family: unix.AF_NETLINK}); err != nil {
		return err
	}
	buf := make([]byte, 8192)
	n, _, err := unix.Recvfrom(q.fd, buf, 0)
	if err != nil {
		return err
	}
	if n < unix.NLMSG_HDRLEN+4 || binary.NativeEndian.Uint16(buf[4:6]) != unix.NLMSG_ERROR {
		return errors.New("unexpected answer from the kernel")
	}
	if code := int32(binary.NativeEndian.Uint32(buf[unix.NLMSG_HDRLEN:])); code != 0 {
		return unix.Errno(-code)
	}
	return nil
}

// acceptUpTo accepts every queued packet with an id up to `id` (the kernel compares ids modulo 2^32).
func (q *nfq) acceptUpTo(id uint32) error {
	var verdict [8]byte
	binary.BigEndian.PutUint32(verdict[0:4], nfAccept)
	binary.BigEndian.PutUint32(verdict[4:8], id)
	q.attrs = attr(q.attrs[:0], nfqaVerdictHdr, verdict[:])
	msg := q.message(nfqnlMsgVerdictBt, 0, q.attrs)
	to := unix.RawSockaddrNetlink{Family: unix.AF_NETLINK}
	_, _, errno := unix.RawSyscall6(unix.SYS_SENDTO, uintptr(q.fd), uintptr(unsafe.Pointer(&msg[0])), uintptr(len(msg)), 0,
		uintptr(unsafe.Pointer(&to)), unix.SizeofSockaddrNetlink)
	if errno != 0 {
		return errno
	}
	return nil
}

// queued is one packet as the kernel announced it.
type queued struct {
	id uint32
	// stampNs is the kernel's timestamp of the packet (CLOCK_REALTIME ns, or the sender's monotonic
	// departure time for TCP that paces), 0 when it has none.
	stampNs int64
}

// mmsghdr is the kernel's struct mmsghdr, one element of recvmmsg's array (x/sys has none for linux).
type mmsghdr struct {
	hdr unix.Msghdr
	n   uint32
	_   [4]byte
}

// A queued packet's message carries metadata only (no payload): under 200 bytes, so a 1 KiB slot
// holds one with room to spare (netlink hands out one message per receive).
const (
	slotBytes  = 1024
	batchSlots = 64
)

// reader receives up to batchSlots queue messages with one system call (recvmmsg): under a burst the
// per-packet cost of a read is one message copy, not one system call each.
type reader struct {
	buf  []byte
	iov  []unix.Iovec
	msgs []mmsghdr
}

func newReader() *reader {
	r := &reader{buf: make([]byte, slotBytes*batchSlots), iov: make([]unix.Iovec, batchSlots), msgs: make([]mmsghdr, batchSlots)}
	for i := range r.msgs {
		r.iov[i].Base = &r.buf[i*slotBytes]
		r.iov[i].SetLen(slotBytes)
		r.msgs[i].hdr.Iov = &r.iov[i]
		r.msgs[i].hdr.SetIovlen(1)
	}
	return r
}

// read appends the packets of every message one recvmmsg returns, without waiting (EAGAIN: nothing
// queued). It returns how many messages it read: fewer than batchSlots means the socket is empty.
func (q *nfq) read(r *reader, into []queued) ([]queued, int, error) {
	n, _, errno := unix.RawSyscall6(unix.SYS_RECVMMSG, uintptr(q.fd), uintptr(unsafe.Pointer(&r.msgs[0])), batchSlots, unix.MSG_DONTWAIT, 0, 0)
	if errno != 0 {
		return into, 0, errno
	}
	for i := range int(n) {
		start := i * slotBytes
		into = parseMessages(r.buf[start:start+min(int(r.msgs[i].n), slotBytes)], into)
	}
	return into, int(n), nil
}

// waitReadable blocks until the socket has something to read, or `timeout` passes.
func (q *nfq) waitReadable(timeout unix.Timespec) {
	_, _, _ = unix.RawSyscall6(unix.SYS_PPOLL, uintptr(unsafe.Pointer(&q.poll[0])), 1, uintptr(unsafe.Pointer(&timeout)), 0, 0, 0)
}

// sleep blocks the thread for d (EINTR: sooner; the caller recomputes).
func sleep(d unix.Timespec) {
	_, _, _ = unix.RawSyscall(unix.SYS_NANOSLEEP, uintptr(unsafe.Pointer(&d)), 0, 0)
}

// parseMessages reads the packet messages of one read (several netlink messages back to back).
func parseMessages(b []byte, into []queued) []queued {
	for len(b) >= unix.NLMSG_HDRLEN {
		size := int(binary.NativeEndian.Uint32(b[0:4]))
		if size < unix.NLMSG_HDRLEN || size > len(b) {
			break
		}
		typ := binary.NativeEndian.Uint16(b[4:6])
		if typ == nfnlSubsysQueue<<8|nfqnlMsgPacket && size >= unix.NLMSG_HDRLEN+4 {
			if p, ok := parsePacket(b[unix.NLMSG_HDRLEN+4 : size]); ok {
				into = append(into, p)
			}
		}
		b = b[min(len(b), (size+3)&^3):]
	}
	return into
}

func parsePacket(attrs []byte) (queued, bool) {
	var p queued
	found := false
	for len(attrs) >= 4 {
		size := int(binary.NativeEndian.Uint16(attrs[0:2]))
		typ := binary.NativeEndian.Uint16(attrs[2:4]) & 0x3fff
		if size < 4 || size > len(attrs) {
			break
		}
		data := attrs[4:size]
		switch {
		case typ == nfqaPacketHdr && len(data) >= 4:
			p.id, found = binary.BigEndian.Uint32(data[0:4]), true
		case typ == nfqaTimestamp && len(data) >= 16:
			sec := int64(binary.BigEndian.Uint64(data[0:8]))
			usec := int64(binary.BigEndian.Uint64(data[8:16]))
			p.stampNs = sec*1e9 + usec*1e3
		}
		attrs = attrs[min(len(attrs), (size+3)&^3):]
	}
	return p, found
}

func (q *nfq) close() { unix.Close(q.fd) }

// enableRxTimestamps makes the kernel stamp every received packet (the stamp nfnetlink_queue passes
// on as NFQA_TIMESTAMP) for as long as the returned socket stays open: a socket asking for receive
// timestamps is what switches stamping on, as `ping` does. Without stamps the delayer would have to
// wake for every arriving packet to learn when it came.
func enableRxTimestamps() (int, error) {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return -1, err
	}
	if err := unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_TIMESTAMPNS, 1); err != nil {
		unix.Close(fd)
		return -1, err
	}
	return fd, nil
}

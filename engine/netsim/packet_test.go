package netsim

import (
	"testing"
	"unsafe"
)

// TestPacketLayout checks what Packet's field order is for: every field a
// link or a router reads of each packet it passes on, and the mark that
// Network.Free reads of every packet it frees, lie in the first 64 bytes,
// and a Packet takes 192 bytes, a size class of Go's allocator whose
// objects start on a cache line. A hop then touches one line of the
// packet, and a packet without an owner is freed without loading the
// line its owner is on.
func TestPacketLayout(t *testing.T) {
	const line = 64
	if unsafe.Sizeof(uintptr(0)) != 8 {
		t.Skip("the layout is laid out for 64-bit platforms")
	}
	var p Packet
	for _, f := range []struct {
		name      string
		off, size uintptr
	}{
		{"next", unsafe.Offsetof(p.next), unsafe.Sizeof(p.next)},
		{"enqueued", unsafe.Offsetof(p.enqueued), unsafe.Sizeof(p.enqueued)},
		{"txAt", unsafe.Offsetof(p.txAt), unsafe.Sizeof(p.txAt)},
		{"arrive", unsafe.Offsetof(p.arrive), unsafe.Sizeof(p.arrive)},
		{"Size", unsafe.Offsetof(p.Size), unsafe.Sizeof(p.Size)},
		{"Skb", unsafe.Offsetof(p.Skb), unsafe.Sizeof(p.Skb)},
		{"Flow", unsafe.Offsetof(p.Flow), unsafe.Sizeof(p.Flow)},
		{"Dst", unsafe.Offsetof(p.Dst), unsafe.Sizeof(p.Dst)},
		{"free", unsafe.Offsetof(p.free), unsafe.Sizeof(p.free)},
		{"skbHead", unsafe.Offsetof(p.skbHead), unsafe.Sizeof(p.skbHead)},
		{"owned", unsafe.Offsetof(p.owned), unsafe.Sizeof(p.owned)},
	} {
		if f.off+f.size > line {
			t.Errorf("Packet.%s at bytes %d-%d: want it in the first %d", f.name, f.off, f.off+f.size-1, line)
		}
	}
	if got := unsafe.Sizeof(p); got != 192 {
		t.Errorf("Packet takes %d bytes, want 192 (a size class of cache-line-aligned objects)", got)
	}
}

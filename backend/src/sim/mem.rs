//! Global memory (the caller's allocations plus the read-only segments `run` adds) and the
//! workgroup's LDS, accessed a dword at a time.
//!
//! Guarantees: every access lies entirely inside one allocation (or the LDS size), else it
//! is an error that names the allocation nearest to the address and how far outside it the
//! access is; global dword accesses must be 4-byte aligned and LDS `b64` accesses 8-byte
//! aligned (kc never emits less, so a misaligned address is a bug it reports); stores to the
//! kernarg segment or dispatch packet are errors.
//!
//! Which buffer an out-of-bounds address was derived from is decided by distance: the
//! allocation whose bytes are nearest. Callers that place allocations far apart (`kc run`
//! leaves a 1 TiB gap around every buffer) therefore get every access that a 32-bit index
//! can produce checked against the buffer it indexes; a zero-length allocation is a
//! valid address range that no access fits in.

/// The global address space of one run.
pub struct MemView<'m> {
    pub allocs: &'m mut Vec<(u64, Vec<u8>)>,
    /// Names of the caller's allocations (index-aligned with `allocs`; may be shorter).
    names: &'m [String],
    /// Allocations at this index and above are read-only (kernarg, dispatch packet).
    pub first_ro: usize,
    /// Index of the allocation hit last (accesses are usually local).
    last: usize,
}

impl<'m> MemView<'m> {
    #[cfg(test)]
    pub fn new(allocs: &'m mut Vec<(u64, Vec<u8>)>, first_ro: usize) -> Self {
        Self::named(allocs, &[], first_ro)
    }

    /// A view whose error messages call allocation `i` by `names[i]`.
    pub fn named(
        allocs: &'m mut Vec<(u64, Vec<u8>)>,
        names: &'m [String],
        first_ro: usize,
    ) -> Self {
        MemView {
            allocs,
            names,
            first_ro,
            last: 0,
        }
    }

    fn name(&self, i: usize) -> String {
        match (self.names.get(i), i.checked_sub(self.first_ro)) {
            (Some(n), _) => format!("`{n}`"),
            (None, Some(0)) => "the kernarg segment".into(),
            (None, Some(_)) => "the dispatch packet".into(),
            (None, None) => format!("allocation {i}"),
        }
    }

    /// Why an access of `len` bytes at `addr` fits no allocation: where it lies relative to
    /// the nearest one.
    fn miss(&self, addr: u64, len: u64) -> String {
        let nearest = self.allocs.iter().enumerate().min_by_key(|(_, a)| {
            let end = a.0 + a.1.len() as u64;
            if addr < a.0 {
                a.0 - addr
            } else {
                addr.saturating_add(len).saturating_sub(end)
            }
        });
        let Some((i, (base, bytes))) = nearest else {
            return "outside every allocation (there are none)".into();
        };
        let size = bytes.len() as u64;
        let (name, end) = (self.name(i), base + size);
        if addr < *base {
            format!(
                "outside every allocation: {} bytes before {name} ({size} bytes at {base:#x})",
                base - addr
            )
        } else if addr >= end {
            format!(
                "outside every allocation: {} bytes past the end of {name} ({size} bytes at {base:#x})",
                addr - end
            )
        } else {
            format!(
                "outside every allocation: runs past the end of {name} ({size} bytes at {base:#x})"
            )
        }
    }

    fn find(&mut self, addr: u64, len: u64) -> Result<(usize, usize), String> {
        let hit = |a: &(u64, Vec<u8>)| {
            addr >= a.0
                && addr
                    .checked_add(len)
                    .is_some_and(|e| e <= a.0 + a.1.len() as u64)
        };
        if let Some(a) = self.allocs.get(self.last) {
            if hit(a) {
                return Ok((self.last, (addr - a.0) as usize));
            }
        }
        match self.allocs.iter().position(hit) {
            Some(i) => {
                self.last = i;
                Ok((i, (addr - self.allocs[i].0) as usize))
            }
            None => Err(self.miss(addr, len)),
        }
    }

    pub fn load32(&mut self, addr: u64) -> Result<u32, String> {
        if !addr.is_multiple_of(4) {
            return Err("misaligned dword access".into());
        }
        let (i, o) = self.find(addr, 4)?;
        let b = &self.allocs[i].1[o..o + 4];
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    pub fn store32(&mut self, addr: u64, v: u32) -> Result<(), String> {
        if !addr.is_multiple_of(4) {
            return Err("misaligned dword access".into());
        }
        let (i, o) = self.find(addr, 4)?;
        if i >= self.first_ro {
            return Err("store to the read-only kernarg segment or dispatch packet".into());
        }
        self.allocs[i].1[o..o + 4].copy_from_slice(&v.to_le_bytes());
        Ok(())
    }
}

/// The LDS of one workgroup.
pub struct Lds {
    pub bytes: Vec<u8>,
}

impl Lds {
    /// Dword `k` of an `n`-dword access at byte address `addr`.
    pub fn load32(&self, addr: u32, k: u32, n: u8) -> Result<u32, String> {
        let o = self.check(addr, k, n)?;
        let b = &self.bytes[o..o + 4];
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    pub fn store32(&mut self, addr: u32, k: u32, n: u8, v: u32) -> Result<(), String> {
        let o = self.check(addr, k, n)?;
        self.bytes[o..o + 4].copy_from_slice(&v.to_le_bytes());
        Ok(())
    }

    fn check(&self, addr: u32, k: u32, n: u8) -> Result<usize, String> {
        let align = 4 * n as u32;
        if !addr.is_multiple_of(align) {
            return Err(format!("LDS access not {align}-byte aligned"));
        }
        let o = addr as u64 + 4 * k as u64;
        if o + 4 > self.bytes.len() as u64 {
            return Err(format!(
                "LDS access outside the {} bytes of .amdhsa_group_segment_fixed_size",
                self.bytes.len()
            ));
        }
        Ok(o as usize)
    }
}

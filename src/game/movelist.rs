//! [`MoveList`]: a fixed-capacity list of moves on the stack, for every game's move generator (no allocation
//! in move generation, perft or search).

/// A list of at most `N` moves of type `M`, on the stack. Each game names its own capacity
/// ([`crate::chess::MoveList`]: 256, [`crate::xiangqi::MoveList`]: 128).
#[derive(Clone)]
pub struct MoveList<M, const N: usize> {
    moves: [M; N],
    len: usize,
}

impl<M: Copy + Default, const N: usize> Default for MoveList<M, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<M: Copy + Default, const N: usize> MoveList<M, N> {
    /// An empty list.
    #[inline]
    pub fn new() -> Self {
        MoveList { moves: [M::default(); N], len: 0 }
    }
}

impl<M: Copy, const N: usize> MoveList<M, N> {
    /// Appends a move.
    ///
    /// # Panics
    /// Past `N` moves (index out of bounds); each game's capacity is above the most moves any position it
    /// accepts can have.
    #[inline]
    pub fn push(&mut self, m: M) {
        self.moves[self.len] = m;
        self.len += 1;
    }

    /// The number of moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when there are no moves.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[M] {
        &self.moves[..self.len]
    }

    /// The moves as a mutable slice (for sorting by a move-ordering score).
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [M] {
        &mut self.moves[..self.len]
    }

    /// True when `m` is in the list.
    pub fn contains(&self, m: M) -> bool
    where
        M: PartialEq,
    {
        self.as_slice().contains(&m)
    }

    /// Iterates the moves.
    pub fn iter(&self) -> std::slice::Iter<'_, M> {
        self.as_slice().iter()
    }

    /// Keeps the moves for which `keep` is true, in order.
    #[inline]
    pub fn retain(&mut self, mut keep: impl FnMut(M) -> bool) {
        let mut n = 0;
        for i in 0..self.len {
            let m = self.moves[i];
            if keep(m) {
                self.moves[n] = m;
                n += 1;
            }
        }
        self.len = n;
    }
}

impl<M: Copy, const N: usize> AsRef<[M]> for MoveList<M, N> {
    fn as_ref(&self) -> &[M] {
        self.as_slice()
    }
}

impl<'a, M: Copy, const N: usize> IntoIterator for &'a MoveList<M, N> {
    type Item = &'a M;
    type IntoIter = std::slice::Iter<'a, M>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn push_retain_and_read_back() {
        let mut list = MoveList::<u16, 8>::new();
        assert!(list.is_empty());
        for m in 1..=6 {
            list.push(m);
        }
        assert_eq!((list.len(), list.contains(4), list.contains(7)), (6, true, false));
        list.retain(|m| m % 2 == 0);
        assert_eq!(list.as_slice(), [2, 4, 6]);
        list.as_mut_slice().reverse();
        assert_eq!(list.iter().copied().collect::<Vec<_>>(), [6, 4, 2]);
    }
}

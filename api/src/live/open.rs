//! Open streams per client address, bounded: a stream holds a task and reads its game after
//! every change, so one address may not open without limit (`STREAMS_PER_ADDRESS`).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

use crate::error::{ApiError, ApiResult};

#[derive(Default)]
pub struct OpenStreams {
    open: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

/// One open stream; counted until dropped.
pub struct Slot {
    open: Arc<Mutex<HashMap<IpAddr, usize>>>,
    address: IpAddr,
}

impl Drop for Slot {
    fn drop(&mut self) {
        crate::telemetry::stream_closed();
        let mut open = self.open.lock().unwrap();
        if let Some(n) = open.get_mut(&self.address) {
            *n -= 1;
            if *n == 0 {
                open.remove(&self.address);
            }
        }
    }
}

impl OpenStreams {
    /// A slot for a new stream from `address`, or 429 when it has `max` open already.
    pub fn open(&self, address: IpAddr, max: usize) -> ApiResult<Slot> {
        let mut open = self.open.lock().unwrap();
        let n = open.entry(address).or_default();
        if *n >= max {
            let mut e = ApiError::rate_limited("open streams", std::time::Duration::from_secs(5));
            e.detail = format!(
                "This address has {max} streams open already (`STREAMS_PER_ADDRESS`); close one first."
            );
            return Err(e);
        }
        *n += 1;
        crate::telemetry::stream_opened();
        Ok(Slot {
            open: self.open.clone(),
            address,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_gets_at_most_max_streams_and_a_closed_one_frees_its_slot() {
        let streams = OpenStreams::default();
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        let first = streams.open(a, 2).unwrap();
        let _second = streams.open(a, 2).unwrap();
        let refused = streams.open(a, 2).err().expect("refused");
        assert_eq!(
            (refused.status.as_u16(), refused.code.as_str()),
            (429, "rate_limited")
        );
        assert!(streams.open(b, 2).is_ok(), "per address");
        drop(first);
        assert!(streams.open(a, 2).is_ok());
    }
}

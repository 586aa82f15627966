//! Looking a provision up by any spelling a user might write.

use sqlx::PgPool;

use nyaya_ingest::refid::parse_user_ref;
use nyaya_ingest::RefId;

use crate::error::{AppError, AppResult};
use crate::store::{self, ProvisionView};

/// Resolves "Art. 21-A", "seventh schedule", "21a" … to the stored provision. The canonical ids
/// the API itself returns ("SCH-7", "APP-II", any case) resolve too, so every `ref` round-trips.
pub async fn lookup(pool: &PgPool, reference: &str) -> AppResult<ProvisionView> {
    let unknown = || AppError::UnknownRef {
        query: reference.to_string(),
    };
    let id = parse_user_ref(reference)
        .map(|r| r.id)
        .or_else(|| reference.trim().to_ascii_uppercase().parse::<RefId>().ok())
        .ok_or_else(unknown)?;
    match store::get_provision(pool, &id).await? {
        Some(p) => Ok(p),
        // "Not in the Constitution" and "nothing ingested yet" are different answers.
        None if store::corpus_info(pool).await?.is_none() => Err(AppError::NoCorpus),
        None => Err(unknown()),
    }
}

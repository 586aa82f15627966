//! Looking a provision up by any spelling a user might write.

use sqlx::PgPool;

use nyaya_ingest::refid::parse_user_ref;
use nyaya_ingest::RefId;

use crate::error::{AppError, AppResult};
use crate::store::{self, ProvisionView};

/// Resolves "Art. 21-A", "seventh schedule", "21a" … to the stored provision. The canonical ids
/// the API itself returns ("SCH-7", "APP-II", any case) resolve too, so every `ref` round-trips.
/// Reads the edition stored as `document_id` (`store::resolve_edition`).
pub async fn lookup(pool: &PgPool, document_id: i64, reference: &str) -> AppResult<ProvisionView> {
    let unknown = || AppError::UnknownRef {
        query: reference.to_string(),
    };
    let id = parse_user_ref(reference)
        .map(|r| r.id)
        .or_else(|| reference.trim().to_ascii_uppercase().parse::<RefId>().ok())
        .ok_or_else(unknown)?;
    store::get_provision(pool, document_id, &id)
        .await?
        .ok_or_else(unknown)
}

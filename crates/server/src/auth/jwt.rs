//! Operator-signed JWTs for `POST /api/sessions` (`{"jwt": "..."}`): HS256 with the configured
//! secret, RS256 or ES256 with a key from the configured JWKS file. Every check (signature,
//! `exp`, `nbf`, `aud`) is the `jsonwebtoken` crate's; this module only picks the key and names
//! what failed.

use jsonwebtoken::errors::ErrorKind;
use jsonwebtoken::jwk::{AlgorithmParameters, EllipticCurve, JwkSet, KeyAlgorithm};
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use serde::Deserialize;

use crate::config::Config;

/// Clock skew allowed on `exp` and `nbf`, seconds.
const LEEWAY_S: u64 = 30;

/// The claims a session needs.
#[derive(Debug, Deserialize)]
pub struct Claims {
    /// the operator's user id
    pub sub: String,
    /// display name
    #[serde(default)]
    pub name: Option<String>,
}

/// Why a JWT was refused; each is a 401 with its own `code`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TokenError {
    /// This server takes no JWTs (no secret, no JWKS configured).
    #[error("this server does not accept JWTs")]
    Disabled,
    /// Not a JWT, not signed by a key we know, or missing `sub`, `exp` or `aud`.
    #[error("the JWT is malformed, not signed by this operator, or lacks sub, exp or aud")]
    Invalid,
    /// `exp` is past.
    #[error("the JWT has expired")]
    Expired,
    /// `nbf` is in the future.
    #[error("the JWT is not valid yet")]
    NotYetValid,
    /// `aud` is not this server's.
    #[error("the JWT is for another audience")]
    Audience,
    /// A guest's sign-in on a server that takes only the operator's JWTs.
    #[error("this server signs players in with the operator's JWTs only: guest sessions are off")]
    GuestsDisabled,
}

impl TokenError {
    /// The error body's `code`.
    pub fn code(self) -> &'static str {
        match self {
            TokenError::Disabled => "jwt_disabled",
            TokenError::GuestsDisabled => "guests_disabled",
            TokenError::Invalid => "token_invalid",
            TokenError::Expired => "token_expired",
            TokenError::NotYetValid => "token_not_yet_valid",
            TokenError::Audience => "token_audience",
        }
    }
}

/// The keys and the audience JWTs are checked against.
pub struct Verifier {
    audience: String,
    /// (key id, algorithm, key): the HS256 secret (no id) and the JWKS file's keys
    keys: Vec<(Option<String>, Algorithm, DecodingKey)>,
}

impl Verifier {
    /// The verifier the configuration asks for (`None`: JWTs are not accepted).
    ///
    /// # Errors
    /// The JWKS file cannot be read or holds no usable RS256/ES256 key.
    pub fn from_config(c: &Config) -> Result<Option<Verifier>, String> {
        let Some(audience) = c.jwt_audience.clone() else { return Ok(None) };
        let mut keys = Vec::new();
        if let Some(secret) = &c.jwt_secret {
            keys.push((None, Algorithm::HS256, DecodingKey::from_secret(secret.as_bytes())));
        }
        if let Some(path) = &c.jwt_jwks_file {
            let text = std::fs::read_to_string(path).map_err(|e| format!("jwt_jwks_file {path}: {e}"))?;
            let set: JwkSet = serde_json::from_str(&text).map_err(|e| format!("jwt_jwks_file {path}: {e}"))?;
            let before = keys.len();
            for jwk in &set.keys {
                let alg = match (&jwk.common.key_algorithm, &jwk.algorithm) {
                    (Some(KeyAlgorithm::RS256), AlgorithmParameters::RSA(_)) => Algorithm::RS256,
                    (Some(KeyAlgorithm::ES256), AlgorithmParameters::EllipticCurve(p))
                        if p.curve == EllipticCurve::P256 =>
                    {
                        Algorithm::ES256
                    }
                    (None, AlgorithmParameters::RSA(_)) => Algorithm::RS256,
                    (None, AlgorithmParameters::EllipticCurve(p)) if p.curve == EllipticCurve::P256 => Algorithm::ES256,
                    // Other algorithms are not ones we accept: skipped, not an error, so one
                    // JWKS can serve several services.
                    _ => continue,
                };
                let key = DecodingKey::from_jwk(jwk).map_err(|e| format!("jwt_jwks_file {path}: {e}"))?;
                keys.push((jwk.common.key_id.clone(), alg, key));
            }
            if keys.len() == before {
                return Err(format!("jwt_jwks_file {path}: no RS256 or ES256 (P-256) key"));
            }
        }
        Ok((!keys.is_empty()).then_some(Verifier { audience, keys }))
    }

    /// The claims of a valid token.
    ///
    /// # Errors
    /// [`TokenError`]: what is wrong with it.
    pub fn verify(&self, token: &str) -> Result<Claims, TokenError> {
        let header = jsonwebtoken::decode_header(token).map_err(|_| TokenError::Invalid)?;
        if !matches!(header.alg, Algorithm::HS256 | Algorithm::RS256 | Algorithm::ES256) {
            return Err(TokenError::Invalid);
        }
        let mut validation = Validation::new(header.alg);
        validation.set_audience(&[&self.audience]);
        validation.set_required_spec_claims(&["exp", "sub", "aud"]);
        validation.validate_nbf = true;
        validation.leeway = LEEWAY_S;
        let candidates = self.keys.iter().filter(|(kid, alg, _)| {
            *alg == header.alg && (header.kid.is_none() || kid.is_none() || *kid == header.kid)
        });
        let mut refused = TokenError::Invalid;
        for (_, _, key) in candidates {
            match jsonwebtoken::decode::<Claims>(token, key, &validation) {
                Ok(data) if !data.claims.sub.trim().is_empty() => return Ok(data.claims),
                Ok(_) => return Err(TokenError::Invalid),
                // The signature is checked before the claims: these errors mean this key
                // signed it, so no other key is tried.
                Err(e) => match e.kind() {
                    ErrorKind::ExpiredSignature => return Err(TokenError::Expired),
                    ErrorKind::ImmatureSignature => return Err(TokenError::NotYetValid),
                    ErrorKind::InvalidAudience => return Err(TokenError::Audience),
                    _ => refused = TokenError::Invalid,
                },
            }
        }
        Err(refused)
    }
}

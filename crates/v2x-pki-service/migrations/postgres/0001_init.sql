-- The PKI service's state (PostgreSQL). EA tables: ea_*, AA tables: aa_*, distribution: dc_*.
-- The EA never stores an AT public key; the AA never stores a canonical id or an EC.
CREATE TABLE ea_stations (
    its_id BYTEA PRIMARY KEY,
    canonical_curve TEXT NOT NULL,
    canonical_key BYTEA NOT NULL,        -- SEC1 compressed point
    revoked BOOLEAN NOT NULL DEFAULT FALSE,
    at_permissions TEXT NOT NULL,       -- JSON: [{"psid": 36, "ssp": "01fffc" | null}]
    registered_at BIGINT NOT NULL
);
CREATE TABLE ea_enrolment_credentials (
    ec_id BYTEA PRIMARY KEY,             -- HashedId8 of the EC
    its_id BYTEA NOT NULL REFERENCES ea_stations (its_id),
    certificate BYTEA NOT NULL,
    not_after BIGINT NOT NULL,          -- TAI seconds since 2004
    revoked BOOLEAN NOT NULL DEFAULT FALSE,
    issued_at BIGINT NOT NULL           -- Unix seconds
);
CREATE INDEX ea_enrolment_credentials_its_id ON ea_enrolment_credentials (its_id);
CREATE TABLE ea_requests (
    replay_key BYTEA PRIMARY KEY,        -- SHA-256 of the decrypted request / EC signature tbsData
    kind SMALLINT NOT NULL,             -- 1 enrolment, 2 authorization validation
    received_at BIGINT NOT NULL
);
CREATE INDEX ea_requests_received_at ON ea_requests (received_at);
CREATE TABLE ea_ec_usage (
    ec_id BYTEA PRIMARY KEY,
    window_start BIGINT NOT NULL,
    validations BIGINT NOT NULL
);
CREATE TABLE aa_requests (
    replay_key BYTEA PRIMARY KEY,        -- SHA-256 of the decrypted request
    received_at BIGINT NOT NULL
);
CREATE INDEX aa_requests_received_at ON aa_requests (received_at);
CREATE TABLE aa_authorization_tickets (
    at_id BYTEA PRIMARY KEY,             -- HashedId8 of the AT
    certificate BYTEA NOT NULL,
    not_after BIGINT NOT NULL,
    request_hash BYTEA NOT NULL,
    issued_at BIGINT NOT NULL
);
CREATE TABLE dc_revoked_cas (
    ca_id BYTEA PRIMARY KEY,             -- HashedId8 of a revoked EA or AA certificate
    revoked_at BIGINT NOT NULL
);

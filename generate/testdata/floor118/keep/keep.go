package keep

import _ "github.com/jackc/pgx/v5"

-- Daily Run Scheduler settings (spec section 3 "Setting": id, name, description, isActive).
CREATE TABLE settings (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name        text NOT NULL CHECK (length(btrim(name)) > 0),
  description text NOT NULL DEFAULT '',
  is_active   boolean NOT NULL DEFAULT true,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);

-- The screen sorts by name by default.
CREATE INDEX settings_name_idx ON settings (name);

-- Folds text for the staff search and the name order: lower case, accents off, apostrophes
-- dropped, anything else that is not a letter or a digit a single space. IMMUTABLE, so the
-- list columns below can be computed from it.
CREATE FUNCTION list_fold(value text) RETURNS text
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
  RETURN nullif(btrim(regexp_replace(regexp_replace(
    replace(replace(replace(replace(translate(lower(value),
      'àáâãäåçèéêëìíîïñòóôõöùúûüýÿāăąćĉċčďēĕėęěĝğġģĥĩīĭįĵķĺļľńņňōŏőŕŗřśŝşšţťũūŭůűųŵŷźżžơưǎǐǒǔǖǘǚǜǟǡǧǩǫǭǰǵǹǻȁȃȅȇȉȋȍȏȑȓȕȗșțȟȧȩȫȭȯȱȳøđħıłŧ',
      'aaaaaaceeeeiiiinooooouuuuyyaaaccccdeeeeegggghiiiijklllnnnooorrrssssttuuuuuuwyzzzouaiouuuuuaagkoojgnaaaeeiioorruusthaeooooyodhilt'),
      'ß', 'ss'), 'æ', 'ae'), 'œ', 'oe'), 'þ', 'th'),
    '[''’`]', '', 'g'), '[^a-z0-9]+', ' ', 'g')), '');
END
$$;
--> statement-breakpoint
-- Each word of folded text, and for words of four letters or more each spelling with one letter
-- left out: two spellings one typo apart (a letter missing, extra, wrong or two swapped) share one.
-- PL/pgSQL (like list_fold): its plan is kept for the session, where a SQL function's would be
-- made again on every save.
CREATE FUNCTION list_typo_keys(words text) RETURNS text[]
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  word text;
  keys text[] := '{}';
BEGIN
  FOREACH word IN ARRAY coalesce(string_to_array(words, ' '), '{}') LOOP
    CONTINUE WHEN word = '';
    keys := keys || word;
    IF length(word) >= 4 THEN
      FOR position IN 1..length(word) LOOP
        keys := keys || overlay(word PLACING '' FROM position FOR 1);
      END LOOP;
    END IF;
  END LOOP;
  RETURN keys;
END
$$;
--> statement-breakpoint
-- The answers to `keys`, then the digits of the answers to `digit_keys`, space-separated. The
-- answers are decompressed once here; `answers->>key` for each key would do it for every key.
CREATE FUNCTION list_answer_text(answers jsonb, keys text[], digit_keys text[]) RETURNS text
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  readable jsonb := answers || '{}'::jsonb;
  result text := '';
  key text;
BEGIN
  FOREACH key IN ARRAY keys LOOP
    result := result || ' ' || coalesce(readable->>key, '');
  END LOOP;
  FOREACH key IN ARRAY digit_keys LOOP
    result := result || ' ' || regexp_replace(coalesce(readable->>key, ''), '[^0-9]', '', 'g');
  END LOOP;
  RETURN result;
END
$$;
--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "list_status" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "list_email" text;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "list_name" text GENERATED ALWAYS AS (list_fold(list_answer_text(answers, array['last_name', 'first_name'], '{}'::text[]))) STORED;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "list_program" text GENERATED ALWAYS AS (nullif(answers->>'applied_major_desc', '')) STORED;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "list_program_code" text GENERATED ALWAYS AS (nullif(answers->>'applied_major', '')) STORED;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "list_entry_term" text GENERATED ALWAYS AS (nullif(answers->>'entry_term', '')) STORED;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "list_decision_type" text GENERATED ALWAYS AS (nullif(answers->>'decision_type', '')) STORED;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "list_activity_hour" timestamp GENERATED ALWAYS AS (date_trunc('hour', updated_at at time zone 'UTC')) STORED;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "list_search" text GENERATED ALWAYS AS (list_fold(list_answer_text(answers, array['first_name', 'middle_name', 'last_name', 'preferred_name', 'prev_lname', 'hs_name', 'hs_ceeb', 'hs_2_name', 'hs_2_ceeb', 'hs_3_name', 'hs_3_ceeb', 'college_name', 'college_ceeb', 'college_2_name', 'college_2_ceeb', 'college_3_name', 'college_3_ceeb'], array['phone_home', 'phone_international', 'phone_mobile', 'phone_mobile_international']))) STORED;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "list_name_keys" text[] GENERATED ALWAYS AS (list_typo_keys(list_fold(list_answer_text(answers, array['first_name', 'middle_name', 'last_name', 'preferred_name', 'prev_lname'], '{}'::text[])))) STORED;--> statement-breakpoint
CREATE INDEX "applications_list_status_idx" ON "applications" USING btree ("list_status","account_id");--> statement-breakpoint
CREATE INDEX "applications_list_name_idx" ON "applications" USING btree ("list_name","account_id");--> statement-breakpoint
CREATE INDEX "applications_list_name_desc_idx" ON "applications" USING btree ("list_name" DESC NULLS LAST,"account_id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "applications_list_program_idx" ON "applications" USING btree ("list_program","account_id");--> statement-breakpoint
CREATE INDEX "applications_list_program_desc_idx" ON "applications" USING btree ("list_program" DESC NULLS LAST,"account_id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "applications_list_program_code_idx" ON "applications" USING btree ("list_program_code");--> statement-breakpoint
CREATE INDEX "applications_list_entry_term_idx" ON "applications" USING btree ("list_entry_term","account_id");--> statement-breakpoint
CREATE INDEX "applications_list_entry_term_desc_idx" ON "applications" USING btree ("list_entry_term" DESC NULLS LAST,"account_id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "applications_list_decision_type_idx" ON "applications" USING btree ("list_decision_type","account_id");--> statement-breakpoint
CREATE INDEX "applications_list_decision_type_desc_idx" ON "applications" USING btree ("list_decision_type" DESC NULLS LAST,"account_id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "applications_submitted_at_idx" ON "applications" USING btree ("submitted_at","account_id");--> statement-breakpoint
CREATE INDEX "applications_submitted_at_desc_idx" ON "applications" USING btree ("submitted_at" DESC NULLS LAST,"account_id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "applications_list_activity_idx" ON "applications" USING btree ("list_activity_hour");--> statement-breakpoint
CREATE INDEX "applications_list_filters_idx" ON "applications" USING btree ("list_status","list_entry_term","list_program_code","list_decision_type","submitted_at");--> statement-breakpoint
CREATE INDEX "applications_list_search_idx" ON "applications" USING gin ("list_search" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "applications_list_email_idx" ON "applications" USING gin ("list_email" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "applications_list_name_keys_idx" ON "applications" USING gin ("list_name_keys");--> statement-breakpoint
-- The list's status: the furthest web status reached (0 started, 1 validating, 2 submitted).
CREATE FUNCTION applications_list_status() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE applications
  SET list_status = CASE NEW.web_status WHEN 'submitted' THEN 2 WHEN 'validating' THEN 1 ELSE 0 END
  WHERE account_id = NEW.account_id
    AND list_status < CASE NEW.web_status WHEN 'submitted' THEN 2 WHEN 'validating' THEN 1 ELSE 0 END;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER web_statuses_list_status AFTER INSERT ON web_statuses
FOR EACH ROW EXECUTE FUNCTION applications_list_status();
--> statement-breakpoint
UPDATE applications AS a SET list_status = CASE
  WHEN a.submitted_at IS NOT NULL OR EXISTS (SELECT 1 FROM web_statuses w WHERE w.account_id = a.account_id AND w.web_status = 'submitted') THEN 2
  WHEN EXISTS (SELECT 1 FROM web_statuses w WHERE w.account_id = a.account_id AND w.web_status = 'validating') THEN 1
  ELSE 0 END;
--> statement-breakpoint
-- The account's address on its application, lower-cased, so one index lookup searches it with
-- the names: set when the application row is made and whenever the address changes.
CREATE FUNCTION applications_list_email() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  NEW.list_email := (SELECT lower(email) FROM accounts WHERE id = NEW.account_id);
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER applications_list_email BEFORE INSERT ON applications
FOR EACH ROW EXECUTE FUNCTION applications_list_email();
--> statement-breakpoint
CREATE FUNCTION accounts_list_email() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE applications SET list_email = lower(NEW.email) WHERE account_id = NEW.id;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER accounts_list_email AFTER UPDATE OF email ON accounts
FOR EACH ROW WHEN (OLD.email IS DISTINCT FROM NEW.email) EXECUTE FUNCTION accounts_list_email();
--> statement-breakpoint
UPDATE applications AS a SET list_email = lower(c.email) FROM accounts AS c WHERE c.id = a.account_id;
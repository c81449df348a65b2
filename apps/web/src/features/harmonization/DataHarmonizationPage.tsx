import Box from "@mui/material/Box";
import Tab from "@mui/material/Tab";
import Tabs from "@mui/material/Tabs";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { DataValidation } from "./DataValidation";

/** Spec section 2: three tabs, Data Validation first and the default; the others coming soon. */
const TABS = ["Data Validation", "Airflow Jobs", "Reports"] as const;

export function DataHarmonizationPage() {
  const [tab, setTab] = useState(0);
  return (
    <Box>
      <Tabs value={tab} onChange={(_, value: number) => setTab(value)} sx={{ mb: 2 }}>
        {TABS.map((label) => (
          <Tab key={label} label={label} />
        ))}
      </Tabs>
      {tab === 0 ? (
        <DataValidation />
      ) : (
        <Typography color="text.secondary" sx={{ mt: 4, textAlign: "center" }}>
          {TABS[tab]}: coming soon.
        </Typography>
      )}
    </Box>
  );
}
